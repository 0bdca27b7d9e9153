import type { ScreenData } from './mcp-device-session.js';
import type { ActOutput } from './mcp-tool-schemas.js';

/**
 * The text an agent host shows its model for `observe`: a screen line (id, screenshots
 * so far), the planner view, and the SCG edges when there are any. The structured result
 * carries the same and what was asked for on top.
 */
export function renderObserveText(data: Pick<ScreenData, 'screen' | 'view' | 'edges'> & { readonly units?: readonly unknown[] | undefined; readonly xml?: string | undefined }): string {
  const lines = [`screen ${data.screen}`, data.view.trimEnd()];
  if (data.edges.length > 0) lines.push(`edges ${data.edges.join(' ')}`);
  if (data.units) lines.push(`units ${data.units.length} (in structuredContent.units)`);
  if (data.xml !== undefined) lines.push(data.xml);
  return `${lines.join('\n')}\n`;
}

/** `act` in words: the verdict and why, each unit's verdict, the change, the surface rule, then the new view. */
export function renderActText(output: ActOutput): string {
  const head = output.verdict === 'refused'
    ? `refused (${output.refusal ?? 'inadmissible'}): ${output.reason}`
    : `${output.verdict}${output.strength ? ` (${output.strength})` : ''}: ${output.reason}`;
  const lines = [head];
  for (const unit of output.units) lines.push(`  ${unit.verdict} ${unit.type} "${unit.label}" [${unit.unit}]${unit.verdict === 'pass' ? '' : `: ${unit.reason}`}`);
  if (output.unfinished) lines.push(`unfinished: ${output.unfinished}`);
  if (output.change.length > 0) lines.push(`change: ${output.change.join('; ')}`);
  if (output.surface) lines.push(`surface: ${output.surface.decision} (${output.surface.rule})`);
  if (output.verdict !== 'refused') lines.push('', renderObserveText(output.after).trimEnd());
  return `${lines.join('\n')}\n`;
}

/** `check` in words: true / false / unknown, the reason, and the nodes it rests on. */
export function renderCheckText(output: { holds: string; reason: string; evidence: readonly string[] }): string {
  return `${output.holds}: ${output.reason}${output.evidence.length > 0 ? `\n${output.evidence.map((line) => `  ${line}`).join('\n')}` : ''}\n`;
}
