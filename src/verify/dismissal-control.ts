import type { ControlUnit } from '../perception/control-unit.js';
import { isActionable } from '../perception/reduce-tree.js';
import type { NodeIndex, UiTree } from '../ui/ui-tree.js';
import { subtreeEnd } from './find-nodes.js';
import { dialogOnly } from './page-trail.js';
import { appBarName } from './page-title.js';
import { looseText, unitIndices } from './tied-evidence.js';

/**
 * Names of controls whose one effect is to leave the screen for the one under it: cancel,
 * close, dismiss, back, "no", in the languages most Android devices run (English, French,
 * German, Spanish, Portuguese, Italian, Russian, Japanese, Korean, Chinese), and the up
 * button's description. The whole label must be the word: "Cancel order" is an action.
 */
const dismissalNames = new Set([
  'cancel', 'close', 'dismiss', 'back', 'navigate up', 'no', 'not now', 'no thanks', 'deny',
  'annuler', 'fermer', 'retour', 'non',
  'abbrechen', 'schließen', 'zurück', 'nein',
  'cancelar', 'cerrar', 'atrás', 'volver', 'fechar', 'voltar', 'não',
  'annulla', 'chiudi', 'indietro',
  'отмена', 'закрыть', 'назад', 'нет',
  'キャンセル', '閉じる', '戻る', 'いいえ',
  '취소', '닫기', '뒤로', '아니요',
  '取消', '关闭', '關閉', '返回', '否', '拒绝', '拒絕', '向上导航', '向上瀏覽', '转到上一层级',
]);

/**
 * Names of a commit that keeps what the page edits, as a whole label: save, done, apply, in
 * the same languages. A settings editor's "Save" (colours chosen in dialogs) holds no field
 * with a value, so only its name says it saves.
 */
const saveNames = new Set([
  'save', 'done', 'apply',
  'enregistrer', 'terminé', 'appliquer',
  'speichern', 'fertig', 'übernehmen',
  'guardar', 'listo', 'aplicar', 'salvar', 'concluído',
  'salva', 'fatto', 'applica',
  'сохранить', 'готово', 'применить',
  '保存', '完了', '適用',
  '저장', '완료', '적용',
  '完成', '应用', '套用', '儲存',
]);

/** A control's name as these lists hold it: loose, without a closing full stop or exclamation mark. */
function wholeName(text: string): string {
  return looseText(text).replace(/[.!]+$/, '');
}

/** True when the unit's label is a save word as a whole ("Save", "Speichern"; not "Save as…"). */
export function namedToSave(unit: ControlUnit): boolean {
  return saveNames.has(wholeName(unit.label));
}

/** How a control says it leaves the screen: by its name, as the app bar's up button, or as a dialog's only control. */
export type DismissalKind = 'named' | 'up' | 'only';

/** Levels above the control searched for its app bar. */
const appBarLevels = 3;
/** The up button sits at the bar's start: within this share of the bar's width. */
const appBarStartShare = 0.1;

/**
 * How the unit's control says it leaves the screen for the one under it (a Cancel, a
 * Close, the app bar's up button), or undefined when it does not say so. Such a control
 * that led to the page the run came from did what it says (`control-went-back`).
 * - `named`: its label, text or description is a dismissal word as a whole.
 * - `up`: an icon without text at the start of an app bar that shows a title after it
 *   and holds no field. That is the up button in any language. While a search field
 *   fills the bar, the control at its start only collapses the search.
 * - `only`: the one control of a dialog dumped alone (nothing else in it can be tapped,
 *   checked, typed in or dragged: "Got it"). Closing the dialog is all it can do.
 */
export function dismissalControl(unit: ControlUnit, before: UiTree): DismissalKind | undefined {
  const primary = before.nodes[unit.members[0]?.node ?? -1];
  if (!primary) return undefined;
  const names = [unit.label, primary.text, primary.contentDesc].map(wholeName);
  if (names.some((name) => dismissalNames.has(name))) return 'named';
  if (dialogOnly(before) && onlyControl(unit, before)) return 'only';
  if (primary.text.trim() !== '') return undefined;
  let bar: NodeIndex = primary.parent;
  for (let level = 0; level < appBarLevels && bar >= 0; level++) {
    const node = before.nodes[bar]!;
    if (appBarName.test(`${node.className} ${node.resourceId}`)) return upButtonOf(before, bar, primary.index) ? 'up' : undefined;
    bar = node.parent;
  }
  return undefined;
}

/** True when `control` sits at the start of the app bar `bar`, which shows a title after it and holds no field. */
function upButtonOf(tree: UiTree, bar: NodeIndex, control: NodeIndex): boolean {
  const barNode = tree.nodes[bar]!;
  const controlNode = tree.nodes[control]!;
  if (controlNode.bounds[0] > barNode.bounds[0] + (barNode.bounds[2] - barNode.bounds[0]) * appBarStartShare) return false;
  let titled = false;
  const end = subtreeEnd(tree, bar);
  for (let index = bar + 1; index < end; index++) {
    const node = tree.nodes[index]!;
    if (node.editable) return false;
    if (!node.clickable && node.text.trim() !== '' && node.bounds[0] > controlNode.bounds[0]) titled = true;
  }
  return titled;
}

/** True when nothing on `tree` outside the unit's nodes has an action of its own (`isActionable`). */
function onlyControl(unit: ControlUnit, tree: UiTree): boolean {
  const own = unitIndices(unit, tree);
  return own.size > 0 && !tree.nodes.some((node) => !own.has(node.index) && isActionable(node));
}
