// A server that answers in a millisecond or two, for the start-up figures of a request: `svc mock`
// spends time of its own on each request (routing, checks, logging), which dilutes the ratio of
// svc to a minimal client. This one is node:http and nothing else: it answers each path (with its
// query) with a reply given ready made, and 404 to anything else. Run as a child of the bench, so
// that the bench's own waiting (spawnSync) never keeps it from answering. A query is matched
// whatever the order of its parameters (svc sorts them; a minimal script need not).
//
//   node bench/support/fast-server.mjs REPLIES.json      prints {"url": …} on stdout once listening
//
// REPLIES.json: {"/v1/reports": {"status": 200, "headers": {…}, "body": "…"}, …}
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

/** A path with its query in one order. */
function pathOf(url) {
  const { pathname, searchParams } = new URL(url, 'http://server');
  searchParams.sort();
  const query = searchParams.toString();
  return query ? `${pathname}?${query}` : pathname;
}

const replies = new Map(
  Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8'))).map(([path, reply]) => [
    pathOf(path),
    {
      status: reply.status,
      headers: { ...reply.headers, 'content-length': Buffer.byteLength(reply.body) },
      body: Buffer.from(reply.body),
    },
  ]),
);
const notFound = Buffer.from(
  '{"error_code":"NOT_FOUND","error_type":"INVALID_REQUEST_ERROR","error_message":"No such path."}',
);

const server = createServer((request, response) => {
  const reply = replies.get(pathOf(request.url));
  if (reply) response.writeHead(reply.status, reply.headers).end(reply.body);
  else
    response
      .writeHead(404, { 'content-type': 'application/json', 'content-length': notFound.length })
      .end(notFound);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })}\n`);
});
