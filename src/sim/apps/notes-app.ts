import { z } from 'zod';
import { defineActivity, type Overlay, type SimApp } from '../sim-app.js';
import { button, checkBox, column, editText, frame, iconButton, label, recycler, row, view, type Widget } from '../widget.js';

/** Package of the Notes app (Simple Notes Pro). */
export const notesPackage = 'com.simplemobiletools.notes.pro';

/** One note: a text note (`text`) or a checklist (`items`). */
export const noteSchema = z.object({
  id: z.string(),
  title: z.string(),
  type: z.enum(['text', 'checklist']),
  text: z.string(),
  items: z.array(z.object({ id: z.string(), text: z.string(), checked: z.boolean() })),
});
export type Note = z.infer<typeof noteSchema>;

/** Notes' state as task checks read it via `appState('com.simplemobiletools.notes.pro')`. */
export const notesStateSchema = z.object({ notes: z.array(noteSchema), nextId: z.number().int() });
export type NotesState = z.infer<typeof notesStateSchema>;

/** Default seed: two text notes (General note, Diary) and a shopping checklist. */
export function defaultNotesState(): NotesState {
  return {
    notes: [
      { id: 'n1', title: 'General note', type: 'text', text: 'Call the dentist on Monday.', items: [] },
      { id: 'n3', title: 'Diary', type: 'text', text: 'Went hiking with Anna.\nRained in the afternoon.', items: [] },
      {
        id: 'n2',
        title: 'Shopping',
        type: 'checklist',
        text: '',
        items: [
          { id: 'i1', text: 'Milk', checked: false },
          { id: 'i2', text: 'Eggs', checked: true },
          { id: 'i3', text: 'Bread', checked: false },
        ],
      },
    ],
    nextId: 5,
  };
}

const nid = (name: string): string => `${notesPackage}:id/${name}`;

function alert(title: string, body: Widget[], actions: { cancel: () => void; ok: () => void; okText: string }): Widget {
  return column({ cls: 'android.widget.FrameLayout', id: 'android:id/parentPanel', look: 'card', padding: 24, gap: 16 }, [
    label(title, { id: 'android:id/alertTitle', fontSize: 20 }),
    ...body,
    row({ id: 'android:id/buttonPanel', justify: 'end', gap: 8 }, [
      button('Cancel', actions.cancel, { id: 'android:id/button2', look: 'plain' }),
      button(actions.okText, actions.ok, { id: 'android:id/button1', look: 'plain' }),
    ]),
  ]);
}

interface MainUi {
  newNote: { title: string; type: 'text' | 'checklist' } | undefined;
  menuFor: string | undefined;
  confirmDelete: string | undefined;
}

const mainActivity = defineActivity<NotesState, MainUi>({
  name: 'com.simplemobiletools.notes.pro.activities.MainActivity',
  create: () => ({ newNote: undefined, menuFor: undefined, confirmDelete: undefined }),
  render: (context, ui) => {
    const notes = context.state.notes;
    const rows = notes.map((note) => {
      const preview = note.type === 'text' ? note.text.split('\n')[0] ?? '' : `${note.items.filter((i) => i.checked).length}/${note.items.length} done`;
      return view('android.widget.LinearLayout', {
        id: nid('note_item'),
        layout: 'column',
        look: 'card',
        padding: [16, 12, 16, 12],
        onTap: () => context.start('com.simplemobiletools.notes.pro.activities.NoteActivity', { id: note.id }),
        onLongPress: () => {
          ui.menuFor = note.id;
        },
        flags: { clickable: true, focusable: true, longClickable: true },
      }, [label(note.title, { id: nid('note_title'), fontSize: 18 }), label(preview, { id: nid('note_preview'), fontSize: 14 })]);
    });
    const overlays: Overlay[] = [];
    if (ui.newNote !== undefined) {
      const draft = ui.newNote;
      const close = (): void => {
        ui.newNote = undefined;
        context.focus(undefined);
      };
      const radio = (type: 'text' | 'checklist', text: string): Widget => view('android.widget.RadioButton', {
        id: nid(type === 'text' ? 'type_text_note' : 'type_checklist'),
        text,
        height: 48,
        icon: draft.type === type ? 'radio-on' : 'radio-off',
        onTap: () => {
          draft.type = type;
        },
        flags: { checkable: true, checked: draft.type === type, clickable: true, focusable: true },
      });
      overlays.push({
        kind: 'dialog',
        onDismiss: close,
        root: alert('Add a new note', [
          editText({ key: 'new-note-title', value: draft.title, onChange: (v) => {
            draft.title = v;
          } }, { id: nid('locked_note_title'), hint: 'Title' }),
          radio('text', 'Text note'),
          radio('checklist', 'Checklist'),
        ], {
          cancel: close,
          okText: 'OK',
          ok: () => {
            const title = draft.title.trim();
            if (title === '') {
              context.toast('No title');
              return;
            }
            if (context.state.notes.some((n) => n.title === title)) {
              context.toast('A note with that title already exists');
              return;
            }
            const note: Note = { id: `n${context.state.nextId++}`, title, type: draft.type, text: '', items: [] };
            context.state.notes.push(note);
            close();
            context.start('com.simplemobiletools.notes.pro.activities.NoteActivity', { id: note.id });
          },
        }),
      });
    }
    if (ui.menuFor !== undefined) {
      const target = ui.menuFor;
      overlays.push({
        kind: 'sheet',
        onDismiss: () => {
          ui.menuFor = undefined;
        },
        root: view('android.widget.LinearLayout', { id: nid('bottom_sheet'), layout: 'column', look: 'card', padding: [0, 16, 0, 16] }, [
          label('Open note', { id: nid('title'), height: 48, padding: [16, 12, 16, 12], onTap: () => {
            ui.menuFor = undefined;
            context.start('com.simplemobiletools.notes.pro.activities.NoteActivity', { id: target });
          } }),
          label('Delete note', { id: nid('title'), height: 48, padding: [16, 12, 16, 12], onTap: () => {
            ui.menuFor = undefined;
            ui.confirmDelete = target;
          } }),
        ]),
      });
    }
    if (ui.confirmDelete !== undefined) {
      const target = context.state.notes.find((n) => n.id === ui.confirmDelete);
      const close = (): void => {
        ui.confirmDelete = undefined;
      };
      overlays.push({
        kind: 'dialog',
        onDismiss: close,
        root: alert('Delete note', [label(`Are you sure you want to delete note "${target?.title ?? ''}"?`, { id: 'android:id/message' })], {
          cancel: close,
          okText: 'Delete',
          ok: () => {
            context.state.notes = context.state.notes.filter((n) => n.id !== target?.id);
            close();
          },
        }),
      });
    }
    return {
      root: frame({ justify: 'end', align: 'end' }, [
        column({ id: nid('main_coordinator') }, [
          row({ cls: 'android.view.ViewGroup', id: nid('main_toolbar'), height: 64, align: 'center', padding: [16, 0, 4, 0] }, [
            label('Notes', { fontSize: 22, width: 'fill' }),
            iconButton('search', 'Search', () => context.toast('Search is not available'), { id: nid('search') }),
          ]),
          recycler('notes', { id: nid('notes_list'), padding: [12, 4, 12, 96], gap: 8, scroll: { key: 'notes', shuffle: true } }, rows.length > 0 ? rows : [label('No notes yet', { id: nid('empty_placeholder'), padding: 24 })]),
        ]),
        frame({ width: 96, height: 96, padding: 16 }, [
          view('android.widget.ImageButton', {
            id: nid('new_note_fab'),
            desc: 'Create a new note',
            icon: 'add',
            width: 64,
            height: 64,
            look: 'filled',
            onTap: () => {
              ui.newNote = { title: '', type: 'text' };
            },
            flags: { clickable: true, focusable: true },
          }),
        ]),
      ]),
      overlays,
    };
  },
});

interface NoteUi {
  id: string;
  newItem: string | undefined;
  confirmDelete: boolean;
  menu: boolean;
  rename: string | undefined;
}

const noteActivity = defineActivity<NotesState, NoteUi>({
  name: 'com.simplemobiletools.notes.pro.activities.NoteActivity',
  create: (params) => ({ id: params['id'] ?? '', newItem: undefined, confirmDelete: false, menu: false, rename: undefined }),
  render: (context, ui) => {
    const note = context.state.notes.find((n) => n.id === ui.id);
    if (note === undefined) return { root: column({ padding: 24 }, [label('Note not found')]) };
    let body: Widget;
    if (note.type === 'text') {
      body = editText({ key: 'note-text', value: note.text, onChange: (v) => {
        note.text = v;
      } }, { id: nid('text_note_view'), hint: 'Insert text here', height: 'fill', look: 'plain', padding: 16 });
    } else {
      const items = note.items.map((item) =>
        row({ id: nid('checklist_holder'), align: 'center', padding: [16, 0, 16, 0], onTap: () => {
          item.checked = !item.checked;
        }, onLongPress: () => {
          note.items = note.items.filter((i) => i.id !== item.id);
          context.toast(`Deleted "${item.text}"`);
        }, flags: { clickable: true, focusable: true, longClickable: true } }, [
          checkBox(item.checked, () => {
            item.checked = !item.checked;
          }, { id: nid('checklist_checkbox'), width: 48 }),
          label(item.text, { id: nid('checklist_title'), width: 'fill', fontSize: 18 }),
        ]),
      );
      body = frame({ justify: 'end', align: 'end' }, [
        recycler('items', { id: nid('checklist_list'), padding: [0, 8, 0, 96] }, items.length > 0 ? items : [label('No items', { id: nid('fragment_placeholder'), padding: 24 })]),
        frame({ width: 96, height: 96, padding: 16 }, [
          view('android.widget.ImageButton', {
            id: nid('checklist_fab'),
            desc: 'Add new checklist items',
            icon: 'add',
            width: 64,
            height: 64,
            look: 'filled',
            onTap: () => {
              ui.newItem = '';
            },
            flags: { clickable: true, focusable: true },
          }),
        ]),
      ]);
    }
    const overlays: Overlay[] = [];
    if (ui.newItem !== undefined) {
      const close = (): void => {
        ui.newItem = undefined;
        context.focus(undefined);
      };
      overlays.push({
        kind: 'dialog',
        onDismiss: close,
        root: alert('Add new checklist items', [
          editText({ key: 'new-item', value: ui.newItem, onChange: (v) => {
            ui.newItem = v;
          } }, { id: nid('checklist_item_title'), hint: 'Enter item' }),
        ], {
          cancel: close,
          okText: 'OK',
          ok: () => {
            const text = (ui.newItem ?? '').trim();
            if (text !== '') note.items.push({ id: `i${context.state.nextId++}`, text, checked: false });
            close();
          },
        }),
      });
    }
    if (ui.menu) {
      overlays.push({
        kind: 'popup',
        onDismiss: () => {
          ui.menu = false;
        },
        root: view('android.widget.ListView', { layout: 'column', look: 'card' }, [
          label('Rename note', { id: nid('title'), height: 48, padding: [16, 12, 16, 12], onTap: () => {
            ui.menu = false;
            ui.rename = note.title;
          } }),
          label('Share', { id: nid('title'), height: 48, padding: [16, 12, 16, 12], onTap: () => {
            ui.menu = false;
            context.toast('Sharing is not available');
          } }),
        ]),
      });
    }
    if (ui.rename !== undefined) {
      const close = (): void => {
        ui.rename = undefined;
        context.focus(undefined);
      };
      overlays.push({
        kind: 'dialog',
        onDismiss: close,
        root: alert('Rename note', [
          editText({ key: 'rename-note', value: ui.rename, onChange: (v) => {
            ui.rename = v;
          } }, { id: nid('locked_note_title'), hint: 'Title' }),
        ], {
          cancel: close,
          okText: 'OK',
          ok: () => {
            const title = (ui.rename ?? '').trim();
            if (title === '') {
              context.toast('No title');
              return;
            }
            if (context.state.notes.some((n) => n.title === title && n.id !== note.id)) {
              context.toast('A note with that title already exists');
              return;
            }
            note.title = title;
            close();
          },
        }),
      });
    }
    if (ui.confirmDelete) {
      const close = (): void => {
        ui.confirmDelete = false;
      };
      overlays.push({
        kind: 'dialog',
        onDismiss: close,
        root: alert('Delete note', [label(`Are you sure you want to delete note "${note.title}"?`, { id: 'android:id/message' })], {
          cancel: close,
          okText: 'Delete',
          ok: () => {
            context.state.notes = context.state.notes.filter((n) => n.id !== note.id);
            context.finish();
          },
        }),
      });
    }
    return {
      root: column({}, [
        row({ cls: 'android.view.ViewGroup', id: nid('note_toolbar'), height: 64, align: 'center', padding: [4, 0, 4, 0] }, [
          iconButton('back', 'Navigate up', () => context.finish()),
          label(note.title, { id: nid('note_title'), fontSize: 22, width: 'fill' }),
          // The real app's delete action is an unlabelled trash icon in the toolbar.
          iconButton('delete', undefined, () => {
            ui.confirmDelete = true;
          }, { id: nid('delete_note') }),
          iconButton('more', 'More options', () => {
            ui.menu = true;
          }),
        ]),
        view('android.view.View', { height: 'fill', layout: 'column', cls: 'android.widget.FrameLayout', id: nid('note_content') }, [body]),
      ]),
      overlays,
    };
  },
});

/**
 * Simple Notes Pro (`com.simplemobiletools.notes.pro`): a list of notes
 * (`activities.MainActivity`; tap opens, long-press offers Delete), the "Create a new
 * note" FAB opening a dialog (title, Text note / Checklist), and a note screen
 * (`activities.NoteActivity`) that autosaves typed text or shows checklist items (tap
 * toggles, long-press deletes, FAB adds), with More options → Rename note. Long-pressing
 * a note in the list opens a bottom sheet (Open note / Delete note). The toolbar's delete icon has no
 * content-desc on purpose (only vision can name it).
 */
export const notesApp: SimApp<NotesState> = {
  packageName: notesPackage,
  label: 'Notes',
  icon: 'note',
  launchActivity: 'com.simplemobiletools.notes.pro.activities.MainActivity',
  stateSchema: notesStateSchema,
  defaultState: defaultNotesState,
  activities: [mainActivity, noteActivity],
};
