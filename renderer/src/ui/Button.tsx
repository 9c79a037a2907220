import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Icon, type IconName } from './Icon.tsx';

type Variant = 'primary' | 'danger' | 'quiet' | 'default';

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  icon?: IconName;
  block?: boolean;
  children?: ReactNode;
}

export function Button({ variant = 'default', icon, block, className, children, type = 'button', ...rest }: ButtonProps) {
  const classes = ['btn', variant !== 'default' && `btn-${variant}`, block && 'btn-block', className].filter(Boolean).join(' ');
  return (
    <button type={type} className={classes} {...rest}>
      {icon && <Icon name={icon} />}
      {children}
    </button>
  );
}

/** A button that shows only an icon: its name for screen readers is required. */
export function IconButton({
  icon,
  label,
  variant = 'quiet',
  className,
  ...rest
}: Omit<ButtonProps, 'children'> & { icon: IconName; label: string }) {
  return (
    <button
      type="button"
      className={['btn', 'btn-icon', `btn-${variant}`, className].filter(Boolean).join(' ')}
      aria-label={label}
      title={label}
      {...rest}
    >
      <Icon name={icon} />
    </button>
  );
}
