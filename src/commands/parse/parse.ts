// `svc parse FILE`: checks the file locally, uploads it as multipart, and with --wait polls the
// report until it is complete or failed.
import { randomBytes } from 'node:crypto';
import { type FileHandle, open } from 'node:fs/promises';
import { basename } from 'node:path';

import type { ApiClient, ApiReply } from '../../api/client.js';
import { ENDPOINTS, target } from '../../api/endpoints.js';
import type * as Reports from '../../api/replies/reports.js';
import { urlInsideApi } from '../../api/request-paths.js';
import type { Context } from '../../app/context.js';
import { present, type ReplyReader } from '../../app/present.js';
import { requireBaseUrl } from '../../config/resolve.js';
import {
  CliError,
  EXIT,
  InterruptedError,
  NetworkError,
  UnexpectedReplyError,
  UsageError,
} from '../../core/errors.js';
import { whyUnreadable } from '../../core/fs-errors.js';
import { otherFields } from '../../core/json/values.js';
import { shownText } from '../../core/output/format.js';
import { withRest } from '../../core/output/generic.js';
import type { Column } from '../../core/output/view.js';
import { ReplyReading } from '../../service/reading.js';
import { checkBank } from '../args.js';
import { reportReader } from '../reports/report-view.js';
import { paintReportStatus } from '../reports/status.js';

export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

const FILE_KINDS = [
  { name: 'PDF', contentType: 'application/pdf', magic: Buffer.from('%PDF-', 'latin1') },
  { name: 'JPEG', contentType: 'image/jpeg', magic: Buffer.from([0xff, 0xd8, 0xff]) },
  {
    name: 'PNG',
    contentType: 'image/png',
    magic: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
];

interface ParseOptions {
  bank: string;
  async?: boolean;
  wait?: boolean;
  waitTimeout: number;
}

export async function parseStatement(
  ctx: Context,
  file: string,
  options: ParseOptions,
): Promise<void> {
  // --async with --wait is refused by their declaration (index.ts).
  const waitSeconds = options.waitTimeout;
  const bank = checkBank(options.bank);
  const document = await readStatement(file);
  const client = await ctx.client();
  const background = options.async === true || options.wait === true;
  const upload = multipart(
    {
      name: 'file',
      filename: basename(file),
      contentType: document.contentType,
      bytes: document.bytes,
    },
    { bank, async: String(background) },
  );
  const spinner = await ctx.spinner(`Uploading ${basename(file)}…`);
  let reply: ApiReply;
  try {
    reply = await client.request({ ...target(ENDPOINTS.parse), body: upload });
  } finally {
    spinner.stop();
  }
  if (!options.wait) {
    if (background) await present(ctx, reply, acceptedReader());
    else await present(ctx, reply, reportReader('POST /v1/parse'));
    return;
  }
  // Waiting reads the replies through the reports' schemas (their status, the poll URL).
  const reports = await import('../../api/replies/reports.js');
  const what = target(ENDPOINTS.parse).what;
  const accepted = reports.readReply(
    new ReplyReading(what),
    reports.ParseAcceptedReply,
    reply.body,
  );
  const baseUrl = await baseUrlOf(ctx);
  // The 202's id is not documented: read where it comes.
  const path = pollPath(
    { pollUrl: accepted?.poll_url, reportId: accepted?.report_id },
    baseUrl,
    what,
  );
  // A path that would leave the API is refused before it is offered as a way to look later.
  urlInsideApi(baseUrl, path);
  const later = lookLater(accepted?.report_id, path, ctx);
  // The upload is accepted: said at once, on a line of its own that the wait's spinner leaves on
  // the screen, so a person who stops waiting (Ctrl-C) still has the report's id.
  if (ctx.io.stderrIsTTY) {
    ctx.err(`Uploaded: ${later.report} is being parsed. To look at it later:`);
    ctx.err(`  ${later.command}`);
  }
  const final = await waitForReport(ctx, client, path, waitSeconds * 1000, later, reports);
  await present(ctx, final, reportReader(`GET ${path}`));
  const report = reports.readReply(
    new ReplyReading(`GET ${path}`),
    reports.ReportReply,
    final.body,
  );
  if (report?.status === 'failed') {
    const reason =
      [report.error?.code, report.error?.message].filter(Boolean).join(': ') || 'no reason given';
    throw new CliError(`report ${report.report_id ?? path} failed: ${reason}`, EXIT.invalid);
  }
}

/**
 * The reply of a parse in the background (202): its poll URL, and its id and status where it has
 * them.
 */
function acceptedReader(): ReplyReader<typeof Reports> {
  return {
    what: target(ENDPOINTS.parse).what,
    replies: () => import('../../api/replies/reports.js'),
    view: (body, reading, { readReply, ParseAcceptedReply }) => {
      const r = readReply(reading, ParseAcceptedReply, body);
      const facts = { id: r?.report_id, status: r?.status, pollUrl: r?.poll_url };
      const next = facts.id
        ? `svc reports get ${facts.id}`
        : facts.pollUrl
          ? `svc api GET ${facts.pollUrl}`
          : undefined;
      const fields: Column<typeof facts>[] = [
        { key: 'report_id', header: 'Report', value: (x) => x.id },
        {
          key: 'status',
          header: 'Status',
          value: (x) => x.status,
          display: (x, paint) => paintReportStatus(x.status ?? '', paint),
        },
        { key: 'poll_url', header: 'Poll URL', value: (x) => x.pollUrl },
      ];
      return withRest(
        { kind: 'record', record: facts, fields },
        otherFields(body, ['report_id', 'status', 'poll_url']),
        {
          hints: next ? [`Parsing in the background. Follow it with: ${next}`] : undefined,
        },
      );
    },
  };
}

/**
 * How to look at a report parsed in the background later: the report named by its id (else its poll
 * path), and the command that shows it; the id and the path as lines show a peer's text
 * (shownText).
 */
interface LookLater {
  /** The report's id, else its poll path. */
  id: string;
  /** `report rpt_…`, or `the report at /v1/…`. */
  report: string;
  command: string;
}

/**
 * The report's id, from the reply or the poll path of a report; the command is `svc reports get
 * ID`, else `svc api GET PATH`.
 */
function lookLater(reportId: string | undefined, path: string, ctx: Context): LookLater {
  const given = reportId ?? reportIdOf(path);
  if (given !== undefined) {
    const id = shownText(given, ctx.secrets);
    return { id, report: `report ${id}`, command: `svc reports get ${id}` };
  }
  const shownPath = shownText(path, ctx.secrets);
  return {
    id: shownPath,
    report: `the report at ${shownPath}`,
    command: `svc api GET ${shownPath}`,
  };
}

/** The id of `/v1/reports/{id}`, the poll path of a report; undefined for any other path. */
function reportIdOf(path: string): string | undefined {
  const match = /^\/v1\/reports\/([^/?#]+)$/.exec(path);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
}

async function baseUrlOf(ctx: Context): Promise<string> {
  return requireBaseUrl(await ctx.config.settings());
}

/**
 * Where to poll a report parsed in the background: its `poll_url` when it lies under the base URL
 * (the key is sent there, so never elsewhere), else the report of its `report_id`. `what`: the
 * request the reply answered, for messages.
 */
export function pollPath(
  accepted: { pollUrl?: string; reportId?: string },
  baseUrl: string,
  what: string,
): string {
  const { pollUrl, reportId: id } = accepted;
  if (pollUrl?.startsWith('/v1/')) return pollUrl;
  if (pollUrl !== undefined && URL.canParse(pollUrl)) {
    const url = new URL(pollUrl);
    const base = new URL(baseUrl);
    const prefix = base.pathname.replace(/\/$/, '');
    if (url.origin === base.origin && url.pathname.startsWith(prefix + '/v1/'))
      return url.pathname.slice(prefix.length) + url.search;
  }
  if (id !== undefined) return target(ENDPOINTS.getReport, { report_id: id }).path;
  if (pollUrl === undefined)
    throw new UnexpectedReplyError(
      `unexpected reply to ${what}: it names neither a poll_url nor a report_id to wait for`,
    );
  throw new UnexpectedReplyError(
    `unexpected reply to ${what}: its poll_url ${JSON.stringify(pollUrl)} is not under the base URL ${baseUrl}, and it names no report_id`,
  );
}

interface Statement {
  bytes: Buffer;
  contentType: string;
}

/** Reads the file and checks it is a PDF, JPEG or PNG of at most 20 MB, by its first bytes. */
export async function readStatement(file: string): Promise<Statement> {
  let bytes: Buffer;
  try {
    const handle = await open(file, 'r');
    try {
      const stat = await handle.stat();
      if (stat.isDirectory()) throw new UsageError(`${file} is a folder, not a statement file`);
      if (stat.size > MAX_UPLOAD_BYTES) {
        throw new UsageError(
          `${file} is ${(stat.size / 1024 / 1024).toFixed(1)} MB; the service takes files of at most 20 MB`,
        );
      }
      bytes = await readAtMost(handle, MAX_UPLOAD_BYTES + 1);
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'EISDIR')
      throw new UsageError(`${file} is a folder, not a statement file`);
    throw new UsageError(`cannot read ${file}: ${whyUnreadable(error)}`);
  }
  if (bytes.length === 0) throw new UsageError(`${file} is empty`);
  if (bytes.length > MAX_UPLOAD_BYTES) throw new UsageError(`${file} is larger than 20 MB`);
  const kind = FILE_KINDS.find((k) => bytes.subarray(0, k.magic.length).equals(k.magic));
  if (!kind)
    throw new UsageError(`${file} is not a PDF, JPEG or PNG file (judged by its first bytes)`);
  return { bytes, contentType: kind.contentType };
}

/**
 * Up to `limit` bytes of an open file: a device or a pipe has no size to check first, and may have
 * no end.
 */
async function readAtMost(handle: FileHandle, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  while (size < limit) {
    const { bytesRead, buffer } = await handle.read({
      buffer: Buffer.allocUnsafe(Math.min(1024 * 1024, limit - size)),
    });
    if (bytesRead === 0) break;
    chunks.push(buffer.subarray(0, bytesRead));
    size += bytesRead;
  }
  return Buffer.concat(chunks, size);
}

interface FilePart {
  name: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

/** A multipart/form-data body (RFC 7578) with one file part and plain text fields. */
export function multipart(
  file: FilePart,
  fields: Record<string, string>,
): { bytes: Uint8Array; contentType: string } {
  const boundary = `svc-${randomBytes(12).toString('hex')}`;
  const quoted = (s: string) => s.replace(/["\r\n\\]/g, (c) => encodeURIComponent(c));
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.name)}"; filename="${quoted(file.filename)}"\r\n` +
        `Content-Type: ${file.contentType}\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { bytes: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

const POLL_START_MS = 1000;
const POLL_MAX_MS = 5000;

/**
 * Polls the report until it leaves `processing` (a reply without a status is taken as final),
 * within the time limit. Interrupted, it says how to look at the report later.
 */
async function waitForReport(
  ctx: Context,
  client: ApiClient,
  path: string,
  limitMs: number,
  later: LookLater,
  reports: typeof Reports,
): Promise<ApiReply> {
  const { id } = later;
  const started = ctx.now();
  const spinner = await ctx.spinner(`Parsing ${id}…`);
  let interval = POLL_START_MS;
  try {
    for (;;) {
      const reply = await client.request({ method: 'GET', path });
      const report = reports.readReply(
        new ReplyReading(`GET ${path}`),
        reports.ReportReply,
        reply.body,
      );
      if (report?.status !== 'processing') return reply;
      const elapsed = ctx.now() - started;
      if (elapsed >= limitMs) {
        throw new NetworkError(
          `${later.report} is still processing after ${Math.round(elapsed / 1000)} s`,
          undefined,
          [`Check it later with \`${later.command}\`, or wait longer with --wait-timeout.`],
        );
      }
      spinner.update({ fields: [`Parsing ${id}…`, `${Math.round(elapsed / 1000)} s`] });
      await ctx.sleep(Math.min(interval, limitMs - elapsed));
      interval = Math.min(POLL_MAX_MS, interval * 1.5);
    }
  } catch (error) {
    if (error instanceof InterruptedError)
      error.hints.push(
        `The upload was accepted: ${later.report} is still being parsed; look at it later with \`${later.command}\`.`,
      );
    throw error;
  } finally {
    spinner.stop();
  }
}
