import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { HierarchyParseError } from '../../../src/ui/hierarchy-parse-error.js';
import { parseHierarchy, safeParseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import { fakeDump, fakeScreen } from './dump-builder.js';

function parseError(source: string, sourceName = 'screen.xml'): HierarchyParseError {
  try {
    parseHierarchy(source, { sourceName });
  } catch (error) {
    if (HierarchyParseError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a HierarchyParseError');
}

const appiumModern = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<hierarchy index="0" class="hierarchy" rotation="0" width="1080" height="2400">
  <android.widget.FrameLayout index="0" package="com.example" class="android.widget.FrameLayout" text="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" long-clickable="false" password="false" scrollable="false" selected="false" bounds="[0,0][1080,2400]" displayed="true">
    <android.widget.Button index="0" package="com.example" class="android.widget.Button" text="Save" resource-id="com.example:id/save" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" long-clickable="false" password="false" scrollable="false" selected="false" bounds="[10,20][310,120]" displayed="true" />
    <android.widget.EditText index="1" package="com.example" class="android.widget.EditText" text="" hint="Name" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="true" long-clickable="true" password="false" scrollable="false" selected="false" bounds="[10,200][1070,300]" displayed="false" />
  </android.widget.FrameLayout>
</hierarchy>`;

describe('parseHierarchy: dialects', () => {
  it('reads modern Appium UiAutomator2 page source, keyed by the class attribute', () => {
    const tree = parseHierarchy(appiumModern);
    expect(tree.dialect).toBe('appium-uia2');
    expect([tree.width, tree.height]).toEqual([1080, 2400]);
    expect(tree.nodes.map((node) => node.className)).toEqual(['android.widget.FrameLayout', 'android.widget.Button', 'android.widget.EditText']);
    const [root, button, edit] = tree.nodes;
    expect(root!.children).toEqual([1, 2]);
    expect(button!).toMatchObject({ text: 'Save', resourceId: 'com.example:id/save', clickable: true, bounds: [10, 20, 310, 120], parent: 0, depth: 1, window: 0, contentDesc: '' });
    expect(edit!).toMatchObject({ editable: true, hint: 'Name', focused: true, displayed: false, longClickable: true });
    expect(button!.xpath).toBe('/android.widget.FrameLayout/android.widget.Button');
    expect(tree.packageName).toBe('com.example');
    expect(tree.empty).toBe(false);
  });

  it('reads legacy Appium page source (<hierarchy rotation> with class-named elements, no width/height)', () => {
    const source = `<?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="0"><android.widget.FrameLayout index="0" text="" class="android.widget.FrameLayout" package="com.legacy" content-desc="" clickable="false" bounds="[0,0][720,1280]" instance="0"><android.widget.TextView index="0" text="Hi" class="android.widget.TextView" package="com.legacy" content-desc="" clickable="true" bounds="[0,0][100,50]" instance="0"/></android.widget.FrameLayout></hierarchy>`;
    const tree = parseHierarchy(source);
    expect(tree.dialect).toBe('appium-uia2');
    expect([tree.width, tree.height]).toEqual([720, 1280]);
    expect(tree.nodes[1]).toMatchObject({ className: 'android.widget.TextView', text: 'Hi', clickable: true, checkable: false, hint: '' });
  });

  it('uses the tag as class only when the class attribute is missing', () => {
    const tree = parseHierarchy('<hierarchy rotation="0"><android.widget.TextView text="x" bounds="[0,0][10,10]"/></hierarchy>');
    expect(tree.nodes[0]!.className).toBe('android.widget.TextView');
  });

  it('reads uiautomator dumps with variants: display-id, visible-to-user, drawing-order, hint, NAF, multi-window', () => {
    const source = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="1">
<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.android.systemui" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,80]" display-id="0" visible-to-user="true"/>
<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.app" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]" drawing-order="0" hint="">
<node NAF="true" index="0" text="" resource-id="" class="android.widget.ImageView" package="com.app" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,100][100,200]" visible-to-user="false" drawing-order="1" hint="Search here"/>
</node></hierarchy>`;
    const tree = parseHierarchy(source);
    expect(tree.dialect).toBe('uiautomator-dump');
    expect(tree.rotation).toBe(1);
    expect(tree.roots).toEqual([0, 1]);
    expect(tree.nodes[2]).toMatchObject({ naf: true, displayed: false, hint: 'Search here', window: 1, parent: 1 });
    expect(tree.packageName).toBe('com.app');
    expect([tree.width, tree.height]).toEqual([1080, 2400]);
  });

  it('takes the foreground package from the first window that is neither SystemUI nor a keyboard', () => {
    const tree = parseHierarchy(fakeDump(
      { package: 'com.google.android.inputmethod.latin', bounds: [0, 1600, 1080, 2400] },
      { package: 'com.android.systemui', bounds: [0, 0, 1080, 80] },
      { package: 'com.example.notes', bounds: [0, 0, 1080, 2400] },
    ));
    expect(tree.packageName).toBe('com.example.notes');
    expect(parseHierarchy(fakeDump({ package: 'com.google.android.inputmethod.latin', bounds: [0, 0, 10, 10] })).packageName).toBe('com.google.android.inputmethod.latin');
  });

  it('decodes XML entities in attribute values', () => {
    const tree = parseHierarchy(fakeScreen({ text: 'Tom & Jerry <3 "quoted" é', bounds: [0, 0, 10, 10] }));
    expect(tree.nodes[1]!.text).toBe('Tom & Jerry <3 "quoted" é');
    const numeric = parseHierarchy('<hierarchy><node class="a" text="&#233;&#x4E2D;&apos;" bounds="[0,0][1,1]"/></hierarchy>');
    expect(numeric.nodes[0]!.text).toBe("é中'");
  });

  it('reads DroidBot JSON states into the same tree (parent/children indices, [[l,t],[r,b]] bounds)', () => {
    const state = {
      foreground_activity: 'com.app/.MainActivity',
      width: 720,
      height: 1280,
      views: [
        { temp_id: 0, parent: -1, children: [1, 2], class: 'android.widget.FrameLayout', package: 'com.app', bounds: [[0, 0], [720, 1280]], enabled: true, visible: true, text: null, content_description: null, resource_id: null },
        { temp_id: 1, parent: 0, children: [], class: 'android.widget.EditText', package: 'com.app', bounds: [[0, 0], [720, 100]], editable: true, clickable: true, text: 'hello', content_description: null, resource_id: 'com.app:id/input', is_password: false },
        { temp_id: 2, parent: 0, children: [], class: 'android.widget.CheckBox', package: 'com.app', bounds: [[0, 100], [720, 200]], checkable: true, checked: true, long_clickable: true, text: 'Remember', visible: false },
      ],
    };
    const tree = parseHierarchy(JSON.stringify(state));
    expect(tree.dialect).toBe('droidbot');
    expect([tree.packageName, tree.activity, tree.width, tree.height]).toEqual(['com.app', '.MainActivity', 720, 1280]);
    expect(tree.nodes[1]).toMatchObject({ editable: true, text: 'hello', resourceId: 'com.app:id/input', bounds: [0, 0, 720, 100], parent: 0 });
    expect(tree.nodes[2]).toMatchObject({ checkable: true, checked: true, longClickable: true, displayed: false, contentDesc: '' });
    expect(parseHierarchy(JSON.stringify(state), { packageName: 'other', activity: '.X' })).toMatchObject({ packageName: 'other', activity: '.X' });
    // The activity stack as DroidBot records it (top first); none recorded, none read.
    expect(tree.activityStack).toEqual([]);
    expect(parseHierarchy(JSON.stringify({ ...state, activity_stack: ['com.app/.Detail', 'com.app/.MainActivity'] })).activityStack).toEqual(['com.app/.Detail', 'com.app/.MainActivity']);
    expect(() => parseHierarchy(JSON.stringify({ ...state, activity_stack: 'com.app/.Detail' }))).toThrow(/activity_stack/);
  });

  it('turns a DroidBot state\'s recorded size when only the turned size holds its windows (the display reported in landscape, the views upright)', () => {
    const state = (width: number, height: number, root: [[number, number], [number, number]]): string => JSON.stringify({
      foreground_activity: 'com.app/.Main',
      width,
      height,
      views: [
        { temp_id: 0, parent: -1, children: [1], class: 'android.widget.FrameLayout', package: 'com.app', bounds: root },
        { temp_id: 1, parent: 0, children: [], class: 'android.widget.Button', package: 'com.app', bounds: [[693, 1298], [969, 1442]], clickable: true, text: 'CONTINUE' },
      ],
    });
    expect(parseHierarchy(state(2340, 1080, [[27, 273], [1053, 1502]]))).toMatchObject({ width: 1080, height: 2340 });
    // Negative controls: windows that fit the recorded size, or fit neither size, keep it.
    expect(parseHierarchy(state(1080, 2340, [[27, 273], [1053, 1502]]))).toMatchObject({ width: 1080, height: 2340 });
    expect(parseHierarchy(state(2340, 1080, [[0, 0], [2340, 1080]]))).toMatchObject({ width: 2340, height: 1080 });
    expect(parseHierarchy(state(1080, 2340, [[0, 0], [1080, 2400]]))).toMatchObject({ width: 1080, height: 2340 });
  });

  it('collects toasts and marks an empty hierarchy as empty instead of failing', () => {
    const withToast = parseHierarchy(fakeScreen({ class: 'android.widget.Toast', text: 'Saved', bounds: [100, 2000, 900, 2100] }));
    expect(withToast.toasts).toEqual(['Saved']);
    const empty = parseHierarchy('<?xml version="1.0"?><hierarchy rotation="0"/>');
    expect(empty).toMatchObject({ empty: true, nodes: [], roots: [] });
    const bare = parseHierarchy(fakeDump({ bounds: [0, 0, 1080, 2400] }));
    expect(bare.empty).toBe(true);
  });

  it('gives equal nodes equal fingerprints and different texts different ones; typing into a field keeps its fingerprint', () => {
    const a = parseHierarchy(fakeScreen({ text: 'A', bounds: [0, 0, 10, 10] }, { text: 'A', bounds: [0, 10, 10, 20] }, { text: 'B', bounds: [0, 20, 10, 30] }));
    expect(a.nodes[1]!.fingerprint).toBe(a.nodes[2]!.fingerprint);
    expect(a.nodes[1]!.fingerprint).not.toBe(a.nodes[3]!.fingerprint);
    const field = (text: string) => parseHierarchy(fakeScreen({ class: 'android.widget.EditText', text, bounds: [0, 0, 100, 50] })).nodes[1]!.fingerprint;
    expect(field('')).toBe(field('typed'));
  });

  it('survives a 10 MB dump', () => {
    const rows = Array.from({ length: 200 }, (_, row) => ({ clickable: true, text: `Row ${row}`, bounds: [0, row * 10, 1080, row * 10 + 10] as const, children: [{ text: `detail ${row}`, bounds: [0, row * 10, 500, row * 10 + 10] as const }] }));
    const screen = fakeScreen(...rows);
    const copies = Math.ceil(10_000_000 / screen.length);
    const body = screen.slice(screen.indexOf('<node'), screen.lastIndexOf('</hierarchy>'));
    const big = `<hierarchy rotation="0">${body.repeat(copies)}</hierarchy>`;
    expect(big.length).toBeGreaterThan(10_000_000);
    const tree = parseHierarchy(big);
    expect(tree.roots.length).toBe(copies);
    expect(tree.nodes.length).toBe(copies * 401);
  });
});

describe('parseHierarchy: errors name the source, line:column, an excerpt and what to do', () => {
  it('truncated XML', () => {
    const source = fakeScreen({ text: 'a', bounds: [0, 0, 1, 1] });
    const error = parseError(source.slice(0, source.length - 30));
    expect(error.message).toMatch(/^screen\.xml:1:\d+: .*truncated/);
    expect(error.message).toContain('re-capture');
    expect(error.position?.line).toBe(1);
    expect(error.code).toBe('hierarchy-parse');
  });

  it('cut inside an attribute', () => {
    const error = parseError('<hierarchy rotation="0">\n<node text="abc');
    expect(error.message).toMatch(/^screen\.xml:2:7: the document ends inside an attribute of <node>/);
    expect(error.excerpt).toContain('^');
  });

  it('mismatched closing tag, with where the open tag was', () => {
    const error = parseError('<hierarchy>\n  <node class="a" bounds="[0,0][1,1]">\n  </nod>\n</hierarchy>');
    expect(error.message).toContain('screen.xml:3:3: closing tag </nod> does not match <node> opened at 2:3');
  });

  it('non-XML input and empty input', () => {
    expect(parseError('hello world').message).toMatch(/screen\.xml:1:1: the input is neither XML .* nor a DroidBot JSON state/);
    expect(parseError('   ').message).toMatch(/the input is empty/);
    expect(parseError('<html><body/></html>').message).toContain('the root element is <html>, not <hierarchy>');
  });

  it('a file of another kind passed for a dump says what it is', () => {
    const dump = '<hierarchy rotation="0"><node class="a" bounds="[0,0][1,1]"/></hierarchy>';
    const bytesError = (bytes: Uint8Array): string => {
      const result = safeParseHierarchy(bytes, { sourceName: 'screen.xml' });
      if (result.success) throw new Error('expected a HierarchyParseError');
      return result.error.message;
    };
    // A binary file is named without an excerpt of its bytes; the error uiautomator printed is quoted.
    expect(bytesError(gzipSync(dump))).toMatch(/^screen\.xml: the input is gzip-compressed, not a UI hierarchy dump\. Decompress it first/);
    // Read as text first (a caller that decoded the file as UTF-8 itself), gzip still reads as gzip, not as UTF-16.
    expect(parseError(Buffer.from(gzipSync(dump)).toString('utf8')).message).toContain('gzip-compressed');
    expect(bytesError(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]))).toContain('a PNG image (a screenshot?)');
    const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]);
    expect(bytesError(jpeg)).toContain('a JPEG image');
    expect(parseError(Buffer.from(jpeg).toString('utf8')).message).toContain('a JPEG image');
    // Other bytes that are no UTF-8 are not named a JPEG for it.
    expect(bytesError(Uint8Array.from([0xff, 0xd8, 0xfe, 0x20, 0x3c]))).not.toContain('JPEG');
    expect(bytesError(Uint8Array.from([0x50, 0x4b, 3, 4, 20, 0, 0, 0]))).toContain('a zip archive');
    const printed = parseError('ERROR: null root node returned by UiTestAutomationBridge.\n');
    expect(printed.message).toContain('screen.xml:1:1: the input is the error uiautomator prints when it cannot dump the screen');
    expect(printed.message).toContain('Capture the screen again');
    // A dump that merely holds the word is still a dump.
    expect(parseHierarchy('<hierarchy rotation="0"><node text="ERROR: x" class="a" bounds="[0,0][1,1]"/></hierarchy>').nodes).toHaveLength(1);
  });

  it('text or a second root after the document', () => {
    expect(parseError('<hierarchy/>\n<hierarchy/>').message).toContain('screen.xml:2:1: a second root element');
    expect(parseError('<hierarchy/> junk').message).toContain('text after the root element');
  });

  it('invalid bounds', () => {
    const error = parseError('<hierarchy rotation="0"><node class="a" bounds="[0,0][abc]"/></hierarchy>');
    expect(error.message).toContain('screen.xml:1:41: invalid bounds "[0,0][abc]" on <node>');
    expect(parseError(JSON.stringify({ views: [{ parent: -1, children: [], bounds: [[0, 0]] }] })).message).toContain('invalid bounds');
  });

  it('broken JSON, JSON without views, dangling child index', () => {
    expect(parseError('{"views": [\n{"parent": -1,,}]}').message).toMatch(/screen\.xml:2:\d+: invalid JSON/);
    expect(parseError('{"foo": 1}').message).toContain('no `views` array');
    expect(parseError(JSON.stringify({ views: [{ temp_id: 0, parent: -1, children: [5], bounds: [[0, 0], [1, 1]] }] })).message).toContain('view 5 is referenced as a child');
  });

  it('safeParseHierarchy returns the error as a value', () => {
    const bad = safeParseHierarchy('<hierarchy><node', { sourceName: 'x.xml' });
    expect(bad.success).toBe(false);
    if (!bad.success) expect(bad.error.sourceName).toBe('x.xml');
    const good = safeParseHierarchy(appiumModern);
    expect(good.success && good.value.nodes.length).toBe(3);
  });
});

describe('parseHierarchy: accessibility actions', () => {
  it('reads the Appium `actions` attribute and treats ACTION_SET_TEXT as editable', () => {
    const tree = parseHierarchy('<hierarchy index="0" class="hierarchy" rotation="0" width="100" height="100"><android.view.View class="android.view.View" text="" bounds="[0,0][100,50]" actions="ACTION_FOCUS,ACTION_CLICK,ACTION_SET_TEXT"/></hierarchy>');
    expect(tree.nodes[0]).toMatchObject({ actions: ['ACTION_FOCUS', 'ACTION_CLICK', 'ACTION_SET_TEXT'], editable: true });
    expect(parseHierarchy(fakeScreen({ bounds: [0, 0, 10, 10] })).nodes[1]!.actions).toEqual([]);
  });
});
