/** What a path in the workspace turned out to be. */
export type WorkspaceEntry =
  | { status: 'file'; path: string; size: number }
  | { status: 'folder'; path: string }
  | { status: 'missing'; path: string }
  /** Refused without reading: outside the workspace, not a regular file, or an unsafe path. */
  | { status: 'refused'; path: string; reason: string };

/** What a path that is not a readable file resolves to. */
export type NotAFile = Exclude<WorkspaceEntry, { status: 'file' }>;

/** A file's content, when it could be read. */
export type WorkspaceText =
  | { status: 'text'; path: string; text: string; size: number; truncated: boolean }
  | { status: 'binary'; path: string; size: number; reason: string }
  | NotAFile;
