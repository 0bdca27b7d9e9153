/**
 * The declarative widget tree the simulated apps are written in. A screen is a function
 * of app state to a `Widget` tree; the layout pass (`layoutWindow`) assigns pixel bounds.
 * All sizes here are in dp (density-independent pixels); the layout multiplies by
 * `density / 160` and rounds.
 */

/** A size along one axis: fixed dp, take the remaining space, or fit the content. */
export type Size = number | 'fill' | 'wrap';

/** Boolean accessibility flags as Android reports them. Absent means false (enabled: true). */
export interface WidgetFlags {
  readonly clickable?: boolean | undefined;
  readonly longClickable?: boolean | undefined;
  readonly checkable?: boolean | undefined;
  readonly checked?: boolean | undefined;
  readonly enabled?: boolean | undefined;
  readonly focusable?: boolean | undefined;
  readonly selected?: boolean | undefined;
  readonly scrollable?: boolean | undefined;
  readonly password?: boolean | undefined;
}

/** An editable text field's binding: the engine focuses it on tap and routes typing to it. */
export interface FieldBinding {
  /** Unique within the screen; focus is remembered by this key. */
  readonly key: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  /** Called on the enter key while focused (e.g. submit a search). */
  readonly onSubmit?: (() => void) | undefined;
}

/** A slider's binding: taps and horizontal swipes on it set the value from the x position. */
export interface SliderBinding {
  readonly value: number;
  readonly max: number;
  readonly onChange: (value: number) => void;
}

/** What the screenshot renderer paints for a node (the XML never shows it). */
export type WidgetLook = 'plain' | 'filled' | 'outlined' | 'card' | 'scrim';

/** One node of a screen's declarative tree: an Android view with its class, texts, flags, layout and handlers. */
export interface Widget {
  /** Real Android class name, e.g. `android.widget.TextView`. */
  readonly cls: string;
  /** Resource-id entry name (`alarm_list`) or a full `pkg:id/name`; the app package is prefixed. */
  readonly id?: string | undefined;
  readonly text?: string | undefined;
  readonly desc?: string | undefined;
  readonly hint?: string | undefined;
  /** Overrides the window's package (rare: e.g. system widgets inside an app). */
  readonly pkg?: string | undefined;
  readonly flags?: WidgetFlags | undefined;
  readonly width?: Size | undefined;
  readonly height?: Size | undefined;
  /** How children are placed; default `column`. `stack` overlays them. */
  readonly layout?: 'column' | 'row' | 'stack' | undefined;
  /** dp, one value or [left, top, right, bottom]. */
  readonly padding?: number | readonly [number, number, number, number] | undefined;
  /** dp between children. */
  readonly gap?: number | undefined;
  /** Main-axis placement of children when there is spare room. */
  readonly justify?: 'start' | 'center' | 'end' | 'space-between' | undefined;
  /** Cross-axis placement; `stretch` (default) fills, others use the child's own size. */
  readonly align?: 'stretch' | 'start' | 'center' | 'end' | undefined;
  /** Text size in sp (default 16). */
  readonly fontSize?: number | undefined;
  readonly children?: readonly Widget[] | undefined;
  readonly onTap?: (() => void) | undefined;
  readonly onLongPress?: (() => void) | undefined;
  readonly field?: FieldBinding | undefined;
  readonly slider?: SliderBinding | undefined;
  /** Marks a scroll container; its offset is remembered by `key` per activity instance. */
  readonly scroll?: { readonly key: string; readonly shuffle?: boolean | undefined } | undefined;
  /** Icon glyph name for the screenshot (e.g. `add`, `back`, `star`). */
  readonly icon?: string | undefined;
  readonly look?: WidgetLook | undefined;
}

/** Widget properties accepted by the builders; `cls` overrides the builder's class. */
export type WidgetProps = Omit<Widget, 'cls' | 'children'> & { readonly cls?: string };
type Props = WidgetProps;

/** Any widget by class name. */
export function view(cls: string, props: Props = {}, children: readonly Widget[] = []): Widget {
  return { ...props, cls, children };
}

/** A vertical `android.widget.LinearLayout`. */
export function column(props: Props, children: readonly Widget[]): Widget {
  return { cls: 'android.widget.LinearLayout', layout: 'column', ...props, children };
}

/** A horizontal `android.widget.LinearLayout`. */
export function row(props: Props, children: readonly Widget[]): Widget {
  return { cls: 'android.widget.LinearLayout', layout: 'row', ...props, children };
}

/** An `android.view.ViewGroup` (ConstraintLayout-like container) laid out as a column. */
export function group(props: Props, children: readonly Widget[]): Widget {
  return { cls: 'android.view.ViewGroup', layout: 'column', ...props, children };
}

/** A `android.widget.FrameLayout` that overlays its children. */
export function frame(props: Props, children: readonly Widget[]): Widget {
  return { cls: 'android.widget.FrameLayout', layout: 'stack', ...props, children };
}

/** A `TextView`; clickable when it has `onTap`. */
export function label(text: string, props: Props = {}): Widget {
  return {
    cls: 'android.widget.TextView',
    text,
    ...props,
    flags: { clickable: props.onTap !== undefined, focusable: props.onTap !== undefined, ...props.flags },
  };
}

/** A text `android.widget.Button`. */
export function button(text: string, onTap: () => void, props: Props = {}): Widget {
  return {
    cls: 'android.widget.Button',
    text,
    look: 'filled',
    padding: [16, 8, 16, 8],
    height: 48,
    ...props,
    onTap,
    flags: { clickable: true, focusable: true, ...props.flags },
  };
}

/**
 * An `android.widget.ImageButton` showing an icon glyph. `desc` may be `undefined` on
 * purpose: the realistic unlabelled icon only vision can identify.
 */
export function iconButton(icon: string, desc: string | undefined, onTap: () => void, props: Props = {}): Widget {
  return {
    cls: 'android.widget.ImageButton',
    desc,
    icon,
    width: 48,
    height: 48,
    ...props,
    onTap,
    flags: { clickable: true, focusable: true, ...props.flags },
  };
}

/** A non-interactive `android.widget.ImageView`. */
export function image(icon: string, props: Props = {}): Widget {
  return { cls: 'android.widget.ImageView', icon, width: 24, height: 24, ...props };
}

/** An `android.widget.EditText` bound to a value; `hint` shows when empty. */
export function editText(field: FieldBinding, props: Props = {}): Widget {
  return {
    cls: 'android.widget.EditText',
    height: 56,
    padding: [16, 8, 16, 8],
    look: 'outlined',
    ...props,
    field,
    text: field.value,
    flags: { clickable: true, focusable: true, longClickable: true, ...props.flags },
  };
}

/** An `android.widget.Switch` (checkable, clickable). */
export function switchWidget(checked: boolean, onTap: () => void, props: Props = {}): Widget {
  return {
    cls: 'android.widget.Switch',
    width: 52,
    height: 48,
    icon: checked ? 'switch-on' : 'switch-off',
    ...props,
    onTap,
    flags: { checkable: true, checked, clickable: true, focusable: true, ...props.flags },
  };
}

/** An `android.widget.CheckBox`. */
export function checkBox(checked: boolean, onTap: () => void, props: Props = {}): Widget {
  return {
    cls: 'android.widget.CheckBox',
    height: 48,
    icon: checked ? 'checkbox-on' : 'checkbox-off',
    ...props,
    onTap,
    flags: { checkable: true, checked, clickable: true, focusable: true, ...props.flags },
  };
}

/** An `android.widget.SeekBar` slider. */
export function seekBar(slider: SliderBinding, props: Props = {}): Widget {
  return {
    cls: 'android.widget.SeekBar',
    height: 48,
    text: String(slider.value),
    ...props,
    slider,
    flags: { clickable: false, focusable: true, ...props.flags },
  };
}

/** A vertical `androidx.recyclerview.widget.RecyclerView` that scrolls by swipes. */
export function recycler(key: string, props: Props, children: readonly Widget[]): Widget {
  return {
    cls: 'androidx.recyclerview.widget.RecyclerView',
    layout: 'column',
    height: 'fill',
    ...props,
    scroll: { key, shuffle: props.scroll?.shuffle },
    flags: { scrollable: true, focusable: true, ...props.flags },
    children,
  };
}

/** A vertical `android.widget.ScrollView` wrapping one column of content. */
export function scrollView(key: string, props: Props, children: readonly Widget[]): Widget {
  return {
    cls: 'android.widget.ScrollView',
    layout: 'column',
    height: 'fill',
    ...props,
    scroll: { key },
    flags: { scrollable: true, focusable: true, ...props.flags },
    children,
  };
}
