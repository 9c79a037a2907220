import { AppError } from '../../app-error.ts';
import type { BackupDestinationRow } from '../../store/database/backup.repo.ts';
import type { S3Place } from '../../store/archives/s3-storage.ts';

/** An off-site destination as the owner types it (the add form, the restore form). */
export interface S3Input {
  kind: 's3';
  endpoint: string;
  region?: string | undefined;
  bucket: string;
  prefix?: string | undefined;
  access_key_id: string;
  secret_access_key: string;
}

/** Most S3-compatible services accept any region name; AWS and B2 need theirs. */
export const DEFAULT_REGION = 'us-east-1';

/** The bucket's place from what the owner typed, each part checked and said back in words with its field. */
export function checkedS3Place(input: S3Input): S3Place {
  const refuse = (field: string, message: string): never => {
    throw new AppError('invalid_destination', message, { field });
  };
  let endpoint = input.endpoint.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint)) endpoint = `https://${endpoint}`;
  let url: URL | null = null;
  try {
    url = new URL(endpoint);
  } catch {
    // said below
  }
  if (
    !url ||
    !/^https?:$/.test(url.protocol) ||
    url.username ||
    url.password ||
    url.search ||
    url.hash ||
    url.pathname.replace(/\/+$/, '') !== ''
  )
    refuse('endpoint', 'Give the address of the S3 service, such as https://s3.eu-central-003.backblazeb2.com, without the bucket.');
  const region = (input.region ?? '').trim() || DEFAULT_REGION;
  if (!/^[\w-]{1,64}$/.test(region)) refuse('region', 'A region is a short name such as eu-central-003 or us-east-1.');
  const bucket = input.bucket.trim();
  if (!/^[a-zA-Z0-9][a-zA-Z0-9._-]{1,62}$/.test(bucket))
    refuse('bucket', "A bucket's name is 3 to 63 letters, digits, dots or dashes, as the S3 service shows it.");
  const prefix = (input.prefix ?? '').trim().replace(/^\/+|\/+$/g, '');
  if (prefix !== '' && (prefix.length > 512 || !prefix.split('/').every((part) => /^[\w.-]+$/.test(part) && part !== '.' && part !== '..')))
    refuse(
      'prefix',
      'A prefix is a folder name in the bucket, such as hearth or family/hearth: letters, digits, dots, dashes and slashes.',
    );
  const keyId = input.access_key_id.trim();
  if (!/^\S{1,256}$/.test(keyId)) refuse('access_key_id', 'Give the access key id the S3 service made for Hearth.');
  const secret = input.secret_access_key.trim();
  if (!/^\S{1,256}$/.test(secret)) refuse('secret_access_key', 'Give the secret key that goes with the access key id.');
  return { endpoint: url!.origin, region, bucket, prefix, access_key_id: keyId, secret_access_key: secret };
}

/** The address that names a bucket's place uniquely (the destination's `path`): endpoint/bucket/prefix. */
export function s3Address(place: Pick<S3Place, 'endpoint' | 'bucket' | 'prefix'>): string {
  return `${place.endpoint}/${place.bucket}${place.prefix ? `/${place.prefix}` : ''}`;
}

/** A stored s3 destination's place, with the secret kept outside the database; null for a folder. */
export function placeOfRow(row: BackupDestinationRow, secret: string | null): S3Place | null {
  if (row.kind !== 's3') return null;
  if (secret === null)
    throw new AppError(
      'invalid_destination',
      `This server does not have the secret key of the bucket ${row.bucket}. Enter the keys again on the Backups page.`,
      { field: 'secret_access_key' },
    );
  return {
    endpoint: row.endpoint!,
    region: row.region ?? DEFAULT_REGION,
    bucket: row.bucket!,
    prefix: row.prefix ?? '',
    access_key_id: row.access_key_id!,
    secret_access_key: secret,
  };
}
