// Why a file the user named could not be read, in words rather than errno codes.

export function whyUnreadable(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a folder';
  if (code === 'ELOOP') return 'it is a symbolic link';
  return (error as Error)?.message ?? String(error);
}
