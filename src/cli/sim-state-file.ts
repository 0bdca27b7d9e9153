import { mkdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../bench/write-file-atomic.js';
import type { ActResult, CallOptions, CallRecord, DeviceInfo, Observation, RecordingDevice, Screenshot } from '../device/device.js';
import { deviceActionSchema, type DeviceAction } from '../device/device-action.js';
import { stableHashHex } from '../util/stable-hash.js';

const simCallSchema = z.discriminatedUnion('call', [
  z.object({ call: z.literal('observe') }).strict(),
  z.object({ call: z.literal('act'), action: deviceActionSchema }).strict(),
]);

/**
 * A simulator kept between CLI calls (`observe sim --state FILE`, `act sim --state FILE`):
 * the device calls made so far, in order, and the screen the last of them saw. The
 * simulator is deterministic for a profile, so replaying the calls on a fresh one rebuilds
 * the same screen and app data; `screen` tells when it does not (the profile or the
 * simulator changed since the file was written).
 */
export const simStateFileSchema = z.object({
  format: z.literal('senseact-sim-state'),
  version: z.literal(1),
  /** The device profile the calls were made on. */
  profile: z.string().min(1),
  calls: z.array(simCallSchema),
  /** The last observation: package, activity and a hash of its XML; null before any. */
  screen: z.object({ packageName: z.string(), activity: z.string(), hash: z.string() }).strict().nullable(),
}).strict();
export type SimStateFile = z.infer<typeof simStateFileSchema>;
type SimCall = z.infer<typeof simCallSchema>;

/** A state file read: its content (a new, empty state when the file does not exist yet) or what is wrong with it. */
export type SimStateRead = { readonly success: true; readonly value: SimStateFile; readonly file: string } | { readonly success: false; readonly error: string };

/**
 * Reads the state file `file` (relative to `cwd`) for profile `profileName`. A missing file
 * is a new state (the simulator's first screen). Unreadable JSON, another shape or another
 * profile give an error that names the file and says what to do.
 */
export async function readSimStateFile(file: string, profileName: string, cwd: string): Promise<SimStateRead> {
  const resolved = path.resolve(cwd, file);
  let text: string;
  try {
    text = await readFile(resolved, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { success: true, file: resolved, value: { format: 'senseact-sim-state', version: 1, profile: profileName, calls: [], screen: null } };
    return { success: false, error: `--state ${file}: cannot read it (${errnoCode(error) ?? String(error)}); give the path of a state file, or of one that does not exist yet to start from the first screen.` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { success: false, error: `--state ${file} is not JSON (${error instanceof Error ? error.message : String(error)}): it is not a state file written by observe or act; delete it to start from the first screen.` };
  }
  const parsed = simStateFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { success: false, error: `--state ${file} is not a simulator state file (${issue === undefined ? 'bad shape' : `${issue.path.join('.') || 'top level'}: ${issue.message}`}); delete it to start from the first screen.` };
  }
  if (parsed.data.profile !== profileName) {
    return { success: false, error: `--state ${file} holds the state of profile ${parsed.data.profile}, not ${profileName}: use that profile, or another state file.` };
  }
  return { success: true, file: resolved, value: parsed.data };
}

/**
 * Replays a state's calls on `device` (a fresh simulator) and gives a device that records
 * the calls made through it next, with `save()` to write them back after the command.
 * Resolves to an error text when the replay does not end on the recorded screen.
 */
export async function replaySimState(device: RecordingDevice, state: SimStateFile, file: string): Promise<{ readonly device: SimStateRecorder } | { readonly error: string }> {
  const recorder = new SimStateRecorder(device, state);
  try {
    for (const call of state.calls) {
      if (call.call === 'observe') await recorder.observe();
      else await recorder.act(call.action);
    }
  } catch (error) {
    return { error: `--state ${file}: replaying its ${state.calls.length} device calls failed (${error instanceof Error ? error.message : String(error)}): the simulator or the profile changed since the file was written; delete it to start from the first screen.` };
  }
  const replayed = recorder.lastScreen;
  if (state.screen !== null && (replayed === null || replayed.hash !== state.screen.hash)) {
    const seen = replayed === null ? 'no screen' : `${replayed.packageName} ${replayed.activity}`;
    return { error: `--state ${file}: replaying its ${state.calls.length} device calls on a fresh simulator gave another screen (${seen}) than the one recorded (${state.screen.packageName} ${state.screen.activity}): the simulator or the profile changed since the file was written; delete it to start from the first screen.` };
  }
  return { device: recorder };
}

/**
 * A device that passes every call to the simulator device it wraps and keeps the
 * observations and actions for the state file. A call that throws is not kept: a
 * command that fails is not saved (`save` is only called after a command succeeds).
 */
export class SimStateRecorder implements RecordingDevice {
  private readonly device: RecordingDevice;
  private readonly calls: SimCall[];
  private readonly profile: string;
  private screen: SimStateFile['screen'];

  constructor(device: RecordingDevice, state: SimStateFile) {
    this.device = device;
    this.profile = state.profile;
    this.calls = [];
    this.screen = null;
  }

  get info(): DeviceInfo {
    return this.device.info;
  }

  get callLog(): readonly CallRecord[] {
    return this.device.callLog;
  }

  /** The last screen observed through this device (replayed or new); null before any. */
  get lastScreen(): SimStateFile['screen'] {
    return this.screen;
  }

  async observe(options: CallOptions = {}): Promise<Observation> {
    const observation = await this.device.observe(options);
    this.calls.push({ call: 'observe' });
    this.screen = { packageName: observation.packageName, activity: observation.activity, hash: stableHashHex(observation.xml) };
    return observation;
  }

  async screenshot(options: CallOptions = {}): Promise<Screenshot> {
    return await this.device.screenshot(options);
  }

  async act(action: DeviceAction, options: CallOptions = {}): Promise<ActResult> {
    const result = await this.device.act(action, options);
    this.calls.push({ call: 'act', action });
    return result;
  }

  async close(): Promise<void> {
    await this.device.close();
  }

  /** Writes every call so far (the replayed ones and the command's) to `file`, atomically. */
  async save(file: string): Promise<void> {
    const state: SimStateFile = { format: 'senseact-sim-state', version: 1, profile: this.profile, calls: this.calls, screen: this.screen };
    await mkdir(path.dirname(file), { recursive: true });
    await writeFileAtomic(file, `${JSON.stringify(state)}\n`);
  }
}

function errnoCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
