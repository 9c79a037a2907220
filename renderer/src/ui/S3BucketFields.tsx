import { Field } from './Field.tsx';

/** An S3-compatible bucket as the owner types it: where it is, and the keys its service made for Hearth. */
export interface S3Bucket {
  endpoint: string;
  region: string;
  bucket: string;
  prefix: string;
  access_key_id: string;
  secret_access_key: string;
}

export const EMPTY_BUCKET: S3Bucket = { endpoint: '', region: '', bucket: '', prefix: '', access_key_id: '', secret_access_key: '' };

export const BUCKET_FIELDS = ['endpoint', 'region', 'bucket', 'prefix', 'access_key_id', 'secret_access_key'] as const;

/** Everything the server needs is there (region and prefix may stay empty). */
export function bucketComplete(value: S3Bucket): boolean {
  return [value.endpoint, value.bucket, value.access_key_id, value.secret_access_key].every((part) => part.trim() !== '');
}

/** The API's s3 body: trimmed, without the optional parts left empty. */
export function bucketBody(value: S3Bucket) {
  return {
    kind: 's3' as const,
    endpoint: value.endpoint.trim(),
    bucket: value.bucket.trim(),
    access_key_id: value.access_key_id.trim(),
    secret_access_key: value.secret_access_key.trim(),
    ...(value.region.trim() && { region: value.region.trim() }),
    ...(value.prefix.trim() && { prefix: value.prefix.trim() }),
  };
}

/**
 * The bucket's fields, shared by the Backups page and the first screen's restore. `error` is the
 * server's sentence, shown under the field it names.
 */
export function S3BucketFields({
  value,
  onChange,
  error,
}: {
  value: S3Bucket;
  onChange: (next: S3Bucket) => void;
  error: { field: string | null; message: string } | null;
}) {
  const on = (field: keyof S3Bucket) => ({
    value: value[field],
    onChange: (e: { target: { value: string } }) => onChange({ ...value, [field]: e.target.value }),
    error: error?.field === field ? error.message : null,
    autoComplete: 'off',
    spellCheck: false,
  });
  return (
    <>
      <Field label="S3 address" hint="From your provider, e.g. https://s3.eu-central-003.backblazeb2.com" required {...on('endpoint')} />
      <Field label="Bucket" hint="The bucket's name, as your provider shows it" required {...on('bucket')} />
      <Field label="Folder in the bucket (optional)" hint="e.g. hearth: backups go in hearth/hearth-backup/" {...on('prefix')} />
      <Field label="Region (optional)" hint="e.g. eu-central-003; left empty, us-east-1" {...on('region')} />
      <Field label="Access key ID" required {...on('access_key_id')} />
      <Field
        label="Secret access key"
        hint="Kept on this PC only; never shown again"
        type="password"
        required
        {...on('secret_access_key')}
      />
    </>
  );
}
