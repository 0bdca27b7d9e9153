import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import type { Command } from 'commander';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadSkills } from '../../skills/skill-library.js';
import type { Skill } from '../../skills/skill-schema.js';
import { createSenseActMcpServer } from '../../mcp/create-mcp-server.js';
import { McpDeviceSession } from '../../mcp/mcp-device-session.js';
import { isLoopbackHost, serveMcpHttp } from '../../mcp/serve-mcp-http.js';
import { exitCodes, type CliIo } from '../cli-io.js';
import type { CommandRegistration } from '../command-registration.js';
import { openCliDevice } from './devices-command.js';

interface McpOptions {
  readonly device: string;
  readonly url?: string;
  readonly launch?: string;
  readonly allow?: string;
  readonly http?: string;
  readonly allowRemote?: boolean;
  readonly allowIrreversible?: boolean;
  readonly skills?: string;
  readonly runs: string;
}

/** `127.0.0.1:8765` or `[::1]:8765` as host and port; a problem in words otherwise. */
export function parseHttpAddress(text: string): { host: string; port: number } | { problem: string } {
  const match = /^(\[[0-9a-fA-F:]+\]|[^:\s]+):(\d{1,5})$/.exec(text.trim());
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65535) return { problem: `--http ${text}: expected host:port, e.g. 127.0.0.1:8765 (port 0 picks a free one)` };
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
}

/** Waits for SIGINT / SIGTERM or `closed`, whichever comes first. */
function untilStopped(closed: Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    void closed.then(stop);
  });
}

/**
 * `senseact mcp [--device <profile>] [--allow <packages>] [--http 127.0.0.1:<port>]`: serves
 * the device over the Model Context Protocol (docs/mcp.md): stdio by default (stdout is the
 * protocol: nothing else is printed there), Streamable HTTP on loopback with a bearer token
 * (`SENSEACT_MCP_TOKEN`, else a new one printed on stderr). A non-loopback bind is refused
 * unless `--allow-remote`. Exit 2 for bad options, 1 when the device cannot be opened.
 */
export const mcpCommand: CommandRegistration = (program: Command, io: CliIo, setExitCode) => {
  program
    .command('mcp')
    .description('Serve a device over MCP: observe / act / check / screenshot / run / skills with verified actions.')
    .option('--device <profile>', 'device profile name (devices/<name>.yaml) or path', 'sim')
    .option('--url <url>', 'Appium server URL (overrides the profile)')
    .option('--launch <package>', 'launch this app before serving')
    .option('--allow <packages>', 'comma-separated apps the session may act in (default: any)')
    .option('--http <host:port>', 'serve Streamable HTTP at http://<host:port>/mcp instead of stdio (loopback only)')
    .option('--allow-remote', 'allow --http on a non-loopback address (anyone who can reach it and has the token drives the device)')
    .option('--allow-irreversible', 'run actions that cannot be undone (delete, pay, buy, send, uninstall, factory reset) without asking')
    .option('--skills <dir>', 'a skills folder for the skills tool')
    .option('--runs <dir>', 'the runs folder (traces; served as senseact://runs/...)', 'runs')
    .action(async (options: McpOptions) => {
      const allow = (options.allow ?? '').split(',').map((name) => name.trim()).filter(Boolean);
      const bad = allow.find((name) => !/^[A-Za-z][\w]*(\.[A-Za-z_][\w]*)+$/.test(name));
      if (bad !== undefined) {
        io.stderr(`senseact mcp: --allow has "${bad}", which is not an Android package name such as com.android.settings\n`);
        setExitCode(exitCodes.badInput);
        return;
      }
      const address = options.http === undefined ? undefined : parseHttpAddress(options.http);
      if (address && 'problem' in address) {
        io.stderr(`senseact mcp: ${address.problem}\n`);
        setExitCode(exitCodes.badInput);
        return;
      }
      if (address && !isLoopbackHost(address.host) && options.allowRemote !== true) {
        io.stderr(`senseact mcp: --http ${options.http}: ${address.host} is not a loopback address; anyone who reaches it could drive the device. Use 127.0.0.1, or pass --allow-remote if you mean it.\n`);
        setExitCode(exitCodes.badInput);
        return;
      }
      let skills: Skill[] = [];
      try {
        if (options.skills !== undefined) skills = loadSkills(path.resolve(io.cwd, options.skills));
      } catch (error) {
        io.stderr(`senseact mcp: --skills ${options.skills ?? ''}: ${error instanceof Error ? error.message : String(error)}\n`);
        setExitCode(exitCodes.badInput);
        return;
      }
      const opened = await openCliDevice('mcp', options.device, { ...(options.url === undefined ? {} : { url: options.url }), ...(options.launch === undefined ? {} : { launch: options.launch }) }, io, setExitCode);
      if (!opened) return;
      const traceRoot = path.resolve(io.cwd, options.runs);
      const irreversibleWords = opened.profile.irreversible ?? [];
      const session = new McpDeviceSession({ device: opened.device, allow, traceRoot, irreversibleWords, allowIrreversible: options.allowIrreversible === true });
      const server = createSenseActMcpServer({ session, traceRoot, skills, run: { env: io.env, cwd: io.cwd, allowIrreversible: options.allowIrreversible === true, irreversibleWords } });
      try {
        if (address) {
          const token = io.env['SENSEACT_MCP_TOKEN'] || randomBytes(24).toString('base64url');
          const endpoint = await serveMcpHttp(server, { ...address, token });
          io.stderr(`senseact mcp: serving ${opened.profile.name} at ${endpoint.url}\n`);
          if (!io.env['SENSEACT_MCP_TOKEN']) io.stderr(`senseact mcp: bearer token ${token} (set SENSEACT_MCP_TOKEN to choose it)\n`);
          await untilStopped(new Promise((resolve) => { server.server.onclose = () => resolve(); }));
          await endpoint.close();
        } else {
          const transport = new StdioServerTransport();
          const closed = new Promise<void>((resolve) => { transport.onclose = () => resolve(); });
          await server.connect(transport);
          process.stdin.once('end', () => void transport.close());
          await untilStopped(closed);
        }
        setExitCode(exitCodes.ok);
      } finally {
        await server.close();
        await session.close();
        await opened.device.close();
      }
    });
};
