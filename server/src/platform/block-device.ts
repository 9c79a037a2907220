/** A block device as lsblk reports it. */
export interface BlockDevice {
  name: string;
  path: string;
  size: number;
  model: string | null;
  removable: boolean;
  type: string;
  fstype: string | null;
  label: string | null;
  uuid: string | null;
  mountpoints: string[];
  parent: string | null;
  /** Who made it ("SanDisk"), where the system says. */
  vendor?: string | null;
  /** How it is connected: lsblk's TRAN ("usb", "sata", "nvme"), null when not said. */
  transport?: string | null;
}
