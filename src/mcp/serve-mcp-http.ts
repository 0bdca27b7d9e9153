import { timingSafeEqual } from 'node:crypto';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** Host names that stay on this machine. */
const loopbackHosts = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** True when `host` (a bind address or a Host header's name) is the loopback interface. */
export function isLoopbackHost(host: string): boolean {
  return loopbackHosts.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** A running HTTP endpoint: its URL and how to stop it. */
export interface McpHttpEndpoint {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

function hostName(header: string | undefined): string {
  if (header === undefined) return '';
  if (header.startsWith('[')) return header.slice(0, header.indexOf(']') + 1);
  return header.split(':')[0] ?? '';
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function refuse(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }));
}

/**
 * Serves `server` over Streamable HTTP at `http://<host>:<port>/mcp` (one MCP session: one
 * device). Every request needs `Authorization: Bearer <token>` (401 without it); Host and
 * Origin must name this machine when bound to loopback (DNS rebinding). Port 0 picks a free
 * port. The caller decides whether a non-loopback host may be used at all.
 */
export async function serveMcpHttp(server: McpServer, options: { readonly host: string; readonly port: number; readonly token: string }): Promise<McpHttpEndpoint> {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await server.connect(transport);
  const loopback = isLoopbackHost(options.host);
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (loopback && !isLoopbackHost(hostName(request.headers.host))) return refuse(response, 403, `Host ${request.headers.host ?? '(none)'} is not this machine`);
    const origin = request.headers.origin;
    if (loopback && origin !== undefined && !isLoopbackHost(hostName(origin.replace(/^[a-z]+:\/\//, '')))) return refuse(response, 403, `Origin ${origin} is not this machine`);
    const auth = request.headers.authorization ?? '';
    if (!auth.startsWith('Bearer ') || !sameToken(auth.slice('Bearer '.length), options.token)) {
      return refuse(response, 401, 'missing or wrong bearer token: send Authorization: Bearer <token> (the token senseact mcp printed, or SENSEACT_MCP_TOKEN)', { 'www-authenticate': 'Bearer' });
    }
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== '/mcp') return refuse(response, 404, 'the MCP endpoint is /mcp');
    await transport.handleRequest(request, response);
  };
  const http: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) refuse(response, 500, error instanceof Error ? error.message : String(error));
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  const shown = options.host.includes(':') && !options.host.startsWith('[') ? `[${options.host}]` : options.host;
  return {
    url: `http://${shown}:${port}/mcp`,
    port,
    close: async () => {
      await transport.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
