import { z } from 'zod';
import { defineActivity, type Overlay, type SimApp } from '../sim-app.js';
import { button, column, editText, frame, iconButton, image, label, recycler, row, scrollView, view, type Widget } from '../widget.js';

/** Package of the Contacts app. */
export const contactsPackage = 'com.google.android.contacts';

/** Phone number types the editor's spinner offers. */
export const phoneTypes = ['Mobile', 'Work', 'Home', 'Main', 'Other'] as const;
/** Email types the editor's spinner offers. */
export const emailTypes = ['Home', 'Work', 'Other'] as const;

/** One contact. `birthday` is `YYYY-MM-DD` or empty. */
export const contactSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  company: z.string(),
  phones: z.array(z.object({ number: z.string(), type: z.enum(phoneTypes) })),
  emails: z.array(z.object({ address: z.string(), type: z.enum(emailTypes) })),
  website: z.string(),
  birthday: z.string(),
  starred: z.boolean(),
  labels: z.array(z.string()),
});
export type Contact = z.infer<typeof contactSchema>;

/** Contacts' state as task checks read it via `appState('com.google.android.contacts')`. */
export const contactsStateSchema = z.object({ contacts: z.array(contactSchema), nextId: z.number().int() });
export type ContactsState = z.infer<typeof contactsStateSchema>;

function contact(id: string, firstName: string, lastName: string, extra: Partial<Contact> = {}): Contact {
  return { id, firstName, lastName, company: '', phones: [], emails: [], website: '', birthday: '', starred: false, labels: [], ...extra };
}

/** Default seed: a few contacts (AAA, ABC, Li Wei…), as the AndroidLab tasks assume. */
export function defaultContactsState(): ContactsState {
  return {
    contacts: [
      contact('c1', 'AAA', '', { phones: [{ number: '(555) 010-1000', type: 'Mobile' }], company: 'Tsinghua University' }),
      contact('c2', 'ABC', '', { phones: [{ number: '(555) 010-2000', type: 'Mobile' }], emails: [{ address: 'abc@example.com', type: 'Home' }], birthday: '1996-10-24' }),
      contact('c3', 'Li', 'Wei', { phones: [{ number: '(555) 010-3000', type: 'Mobile' }], emails: [{ address: 'li.wei@example.com', type: 'Work' }] }),
      contact('c4', 'Maria', 'Garcia', { phones: [{ number: '(555) 010-4000', type: 'Home' }], starred: true }),
      contact('c5', 'Tom', 'Baker', { phones: [{ number: '(555) 010-5000', type: 'Work' }] }),
    ],
    nextId: 6,
  };
}

const cid = (name: string): string => `${contactsPackage}:id/${name}`;

/** Display name: "First Last", trimmed. */
export function displayName(c: Pick<Contact, 'firstName' | 'lastName'>): string {
  return `${c.firstName} ${c.lastName}`.trim();
}

function byName(a: Contact, b: Contact): number {
  return displayName(a).localeCompare(displayName(b), 'en');
}

function avatar(name: string): Widget {
  return view('android.widget.QuickContactBadge', { id: cid('photo'), text: '', icon: name.charAt(0).toLowerCase() || 'person', width: 40, height: 40, look: 'filled' });
}

const peopleActivity = defineActivity<ContactsState, { query: string }>({
  name: 'com.android.contacts.activities.PeopleActivity',
  create: () => ({ query: '' }),
  render: (context, ui) => {
    const q = ui.query.trim().toLowerCase();
    const visible = context.state.contacts
      .filter((c) => q === '' || displayName(c).toLowerCase().includes(q) || c.phones.some((p) => p.number.replace(/\D/g, '').includes(q.replace(/\D/g, '') || '\u0000')))
      .sort(byName);
    const open = (c: Contact) => () => context.start('com.android.contacts.quickcontact.QuickContactActivity', { id: c.id });
    const rowFor = (c: Contact): Widget =>
      view('android.view.ViewGroup', { layout: 'row', align: 'center', height: 64, padding: [16, 8, 16, 8], gap: 16, onTap: open(c), onLongPress: open(c), flags: { clickable: true, focusable: true, longClickable: true } }, [
        avatar(displayName(c)),
        label(displayName(c), { id: cid('cliv_name_textview'), width: 'fill', fontSize: 18 }),
      ]);
    const starred = visible.filter((c) => c.starred);
    const items: Widget[] = [];
    if (q === '' && starred.length > 0) {
      items.push(label('Favorites', { id: cid('cliv_section_header'), padding: [16, 12, 16, 4], fontSize: 14 }));
      items.push(...starred.map(rowFor));
      items.push(label('All contacts', { id: cid('cliv_section_header'), padding: [16, 12, 16, 4], fontSize: 14 }));
    }
    items.push(...visible.map(rowFor));
    if (visible.length === 0) items.push(label(q === '' ? 'No contacts' : 'No contacts found', { id: cid('empty_list_text'), padding: 24 }));
    return {
      root: frame({ justify: 'end', align: 'end' }, [
        column({ id: cid('list_root') }, [
          row({ id: cid('search_view_container'), height: 72, padding: [16, 8, 16, 8], align: 'center' }, [
            editText({ key: 'contact-search', value: ui.query, onChange: (value) => {
              ui.query = value;
            }, onSubmit: () => context.focus(undefined) }, { id: cid('open_search_bar_text_view'), hint: 'Search contacts', width: 'fill', look: 'card' }),
            iconButton('account', 'Signed in as user@gmail.com', () => context.toast('Account: user@gmail.com'), { id: cid('og_apd_internal_image_view') }),
          ]),
          recycler('contacts', { id: cid('contact_list'), scroll: { key: 'contacts', shuffle: true } }, items),
        ]),
        frame({ width: 96, height: 96, padding: 16 }, [
          view('android.widget.ImageButton', {
            id: cid('floating_action_button'),
            desc: 'Create contact',
            icon: 'add',
            width: 64,
            height: 64,
            padding: 0,
            look: 'filled',
            onTap: () => context.start('com.android.contacts.activities.ContactEditorActivity', { mode: 'create' }),
            flags: { clickable: true, focusable: true },
          }),
        ]),
      ]),
    };
  },
});

const quickContact = defineActivity<ContactsState, { id: string; menu: boolean; confirmDelete: boolean }>({
  name: 'com.android.contacts.quickcontact.QuickContactActivity',
  create: (params) => ({ id: params['id'] ?? '', menu: false, confirmDelete: false }),
  render: (context, ui) => {
    const c = context.state.contacts.find((x) => x.id === ui.id);
    if (c === undefined) {
      return { root: column({ padding: 24 }, [label('Contact not found', { id: cid('empty_list_text') })]) };
    }
    const entries: Widget[] = [];
    for (const p of c.phones) {
      entries.push(row({ padding: [16, 8, 16, 8], align: 'center', gap: 16, onTap: () => context.toast(`Calling ${p.number}`), flags: { clickable: true, focusable: true } }, [
        image('call'),
        column({ width: 'fill' }, [label(p.number, { id: cid('header'), fontSize: 18 }), label(p.type, { id: cid('sub_header'), fontSize: 14 })]),
        iconButton('message', `Message ${p.type} ${p.number}`, () => context.toast('Messages is not installed'), { id: cid('icon_alternate') }),
      ]));
    }
    for (const e of c.emails) {
      entries.push(row({ padding: [16, 8, 16, 8], align: 'center', gap: 16, onTap: () => context.toast('No email app'), flags: { clickable: true, focusable: true } }, [
        image('email'),
        column({ width: 'fill' }, [label(e.address, { id: cid('header'), fontSize: 18 }), label(e.type, { id: cid('sub_header'), fontSize: 14 })]),
      ]));
    }
    const about: Widget[] = [];
    if (c.company !== '') about.push(label(c.company, { id: cid('organization'), padding: [16, 4, 16, 4] }));
    if (c.website !== '') about.push(row({ padding: [16, 8, 16, 8], gap: 16 }, [image('web'), label(c.website, { id: cid('header') })]));
    if (c.birthday !== '') about.push(row({ padding: [16, 8, 16, 8], gap: 16 }, [image('cake'), column({}, [label(c.birthday, { id: cid('header') }), label('Birthday', { id: cid('sub_header'), fontSize: 14 })])]));
    const overlays: Overlay[] = [];
    if (ui.menu) {
      const item = (text: string, onTap: () => void): Widget => label(text, { id: cid('title'), height: 48, padding: [16, 12, 16, 12], onTap });
      overlays.push({
        kind: 'popup',
        onDismiss: () => {
          ui.menu = false;
        },
        root: view('android.widget.ListView', { layout: 'column', look: 'card' }, [
          item('Delete', () => {
            ui.menu = false;
            ui.confirmDelete = true;
          }),
          item('Share', () => {
            ui.menu = false;
            context.toast('Sharing is not available');
          }),
          item('Add to Home screen', () => {
            ui.menu = false;
            context.toast('Added to Home screen');
          }),
        ]),
      });
    }
    if (ui.confirmDelete) {
      const cancel = (): void => {
        ui.confirmDelete = false;
      };
      overlays.push({
        kind: 'dialog',
        onDismiss: cancel,
        root: column({ cls: 'android.widget.FrameLayout', id: 'android:id/parentPanel', look: 'card', padding: 24, gap: 16 }, [
          label('Delete this contact?', { id: 'android:id/message', fontSize: 18 }),
          row({ id: 'android:id/buttonPanel', justify: 'end', gap: 8 }, [
            button('Cancel', cancel, { id: 'android:id/button2', look: 'plain' }),
            button('Delete', () => {
              context.state.contacts = context.state.contacts.filter((x) => x.id !== c.id);
              context.toast(`${displayName(c)} deleted`);
              context.finish();
            }, { id: 'android:id/button1', look: 'plain' }),
          ]),
        ]),
      });
    }
    return {
      root: scrollView('contact', { id: cid('content_scroller') }, [
        row({ cls: 'android.view.ViewGroup', id: cid('toolbar'), height: 64, align: 'center', padding: [4, 0, 4, 0] }, [
          iconButton('back', 'Navigate up', () => context.finish()),
          view('android.view.View', { width: 'fill' }),
          iconButton(c.starred ? 'star' : 'star-outline', c.starred ? 'Remove from favorites' : 'Add to favorites', () => {
            c.starred = !c.starred;
          }, { id: cid('menu_star') }),
          iconButton('edit', 'Edit contact', () => context.start('com.android.contacts.activities.ContactEditorActivity', { mode: 'edit', id: c.id }), { id: cid('menu_edit') }),
          iconButton('more', 'More options', () => {
            ui.menu = true;
          }),
        ]),
        column({ id: cid('photo_touch_intercept_overlay'), align: 'center', padding: 16, gap: 8 }, [
          view('android.widget.ImageView', { id: cid('large_title_photo'), icon: displayName(c).charAt(0).toLowerCase() || 'person', width: 96, height: 96, look: 'filled' }),
          label(displayName(c), { id: cid('large_title'), fontSize: 28 }),
        ]),
        row({ padding: [16, 8, 16, 8], gap: 8, justify: 'center' }, [
          button('Call', () => context.toast(c.phones[0] === undefined ? 'No phone number' : `Calling ${c.phones[0].number}`), { id: cid('call_button'), look: 'outlined', flags: { enabled: c.phones.length > 0 } }),
          button('Text', () => context.toast('Messages is not installed'), { id: cid('text_button'), look: 'outlined', flags: { enabled: c.phones.length > 0 } }),
          button('Video', () => context.toast('No video app'), { id: cid('video_button'), look: 'outlined' }),
        ]),
        column({ id: cid('communication_card'), look: 'card', padding: [0, 8, 0, 8] }, [label('Contact info', { padding: [16, 4, 16, 4], fontSize: 16 }), ...entries]),
        ...(about.length > 0 ? [column({ id: cid('about_card'), look: 'card', padding: [0, 8, 0, 8] }, [label('About', { padding: [16, 4, 16, 4], fontSize: 16 }), ...about])] : []),
      ]),
      overlays,
    };
  },
});

interface EditorUi {
  mode: 'create' | 'edit';
  id: string;
  draft: Contact;
  original: string;
  typeMenu: { field: 'phone' | 'email'; index: number } | undefined;
  confirmDiscard: boolean;
}

function editorFields(ui: EditorUi): Widget[] {
  const d = ui.draft;
  const field = (key: string, hint: string, value: string, set: (v: string) => void, icon?: string): Widget =>
    row({ padding: [16, 4, 16, 4], align: 'center', gap: 16 }, [
      icon === undefined ? view('android.view.View', { width: 24 }) : image(icon),
      editText({ key, value, onChange: set }, { hint, width: 'fill', id: cid('editor_field') }),
    ]);
  const typeSpinner = (kind: 'phone' | 'email', index: number, value: string): Widget =>
    view('android.widget.Spinner', {
      id: cid('spinner'),
      text: '',
      desc: value,
      width: 120,
      height: 56,
      layout: 'column',
      look: 'outlined',
      onTap: () => {
        ui.typeMenu = { field: kind, index };
      },
      flags: { clickable: true, focusable: true },
    }, [label(value, { id: 'android:id/text1', padding: [12, 14, 12, 0] })]);
  const phones = [...d.phones, { number: '', type: 'Mobile' as const }];
  const emails = [...d.emails, { address: '', type: 'Home' as const }];
  return [
    field('first', 'First name', d.firstName, (v) => {
      d.firstName = v;
    }, 'person'),
    field('last', 'Last name', d.lastName, (v) => {
      d.lastName = v;
    }),
    field('company', 'Company', d.company, (v) => {
      d.company = v;
    }, 'business'),
    ...phones.map((p, i) =>
      row({ align: 'center' }, [
        column({ width: 'fill' }, [field(`phone-${i}`, 'Phone', p.number, (v) => {
          if (i < d.phones.length) {
            const existing = d.phones[i];
            if (existing !== undefined) existing.number = v;
          } else d.phones.push({ number: v, type: p.type });
        }, i === 0 ? 'call' : undefined)]),
        typeSpinner('phone', i, p.type),
      ]),
    ),
    ...emails.map((e, i) =>
      row({ align: 'center' }, [
        column({ width: 'fill' }, [field(`email-${i}`, 'Email', e.address, (v) => {
          if (i < d.emails.length) {
            const existing = d.emails[i];
            if (existing !== undefined) existing.address = v;
          } else d.emails.push({ address: v, type: e.type });
        }, i === 0 ? 'email' : undefined)]),
        typeSpinner('email', i, e.type),
      ]),
    ),
    field('website', 'Website', d.website, (v) => {
      d.website = v;
    }, 'web'),
    field('birthday', 'Birthday (YYYY-MM-DD)', d.birthday, (v) => {
      d.birthday = v;
    }, 'cake'),
    field('labels', 'Labels (comma separated)', d.labels.join(', '), (v) => {
      d.labels = v.split(',').map((x) => x.trim()).filter((x) => x !== '');
    }, 'label'),
  ];
}

function cleaned(d: Contact): Contact {
  return {
    ...d,
    firstName: d.firstName.trim(),
    lastName: d.lastName.trim(),
    company: d.company.trim(),
    phones: d.phones.filter((p) => p.number.trim() !== '').map((p) => ({ ...p, number: p.number.trim() })),
    emails: d.emails.filter((e) => e.address.trim() !== '').map((e) => ({ ...e, address: e.address.trim() })),
    website: d.website.trim(),
    birthday: d.birthday.trim(),
  };
}

const contactEditor = defineActivity<ContactsState, EditorUi>({
  name: 'com.android.contacts.activities.ContactEditorActivity',
  create: (params) => {
    const blank = contact('', '', '');
    return { mode: params['mode'] === 'edit' ? 'edit' : 'create', id: params['id'] ?? '', draft: blank, original: '', typeMenu: undefined, confirmDiscard: false };
  },
  render: (context, ui) => {
    if (ui.mode === 'edit' && ui.original === '') {
      const existing = context.state.contacts.find((c) => c.id === ui.id);
      if (existing !== undefined) {
        ui.draft = structuredClone(existing);
        ui.original = JSON.stringify(existing);
      }
    }
    if (ui.original === '') ui.original = JSON.stringify(ui.draft);
    const dirty = JSON.stringify(ui.draft) !== ui.original;
    const save = (): void => {
      const d = cleaned(ui.draft);
      if (displayName(d) === '' && d.phones.length === 0 && d.emails.length === 0 && d.company === '') {
        context.toast('Contact not saved: it is empty');
        context.finish();
        return;
      }
      if (ui.mode === 'create') {
        const saved = { ...d, id: `c${context.state.nextId++}` };
        context.state.contacts.push(saved);
        context.toast('Contact saved');
        context.finish();
        context.start('com.android.contacts.quickcontact.QuickContactActivity', { id: saved.id });
      } else {
        context.state.contacts = context.state.contacts.map((c) => (c.id === d.id ? d : c));
        context.toast('Contact saved');
        context.finish();
      }
    };
    const overlays: Overlay[] = [];
    if (ui.typeMenu !== undefined) {
      const menu = ui.typeMenu;
      const options = menu.field === 'phone' ? phoneTypes : emailTypes;
      overlays.push({
        kind: 'popup',
        width: 160,
        onDismiss: () => {
          ui.typeMenu = undefined;
        },
        root: view('android.widget.ListView', { layout: 'column', look: 'card' }, options.map((option) => view('android.widget.CheckedTextView', {
          id: 'android:id/text1',
          text: option,
          height: 48,
          padding: [16, 12, 16, 12],
          onTap: () => {
            if (menu.field === 'phone') {
              if (menu.index >= ui.draft.phones.length) ui.draft.phones.push({ number: '', type: option as Contact['phones'][number]['type'] });
              const p = ui.draft.phones[menu.index];
              if (p !== undefined) p.type = option as Contact['phones'][number]['type'];
            } else {
              if (menu.index >= ui.draft.emails.length) ui.draft.emails.push({ address: '', type: option as Contact['emails'][number]['type'] });
              const e = ui.draft.emails[menu.index];
              if (e !== undefined) e.type = option as Contact['emails'][number]['type'];
            }
            ui.typeMenu = undefined;
          },
          flags: { clickable: true, focusable: true, checkable: true },
        }))),
      });
    }
    if (ui.confirmDiscard) {
      const keep = (): void => {
        ui.confirmDiscard = false;
      };
      overlays.push({
        kind: 'dialog',
        onDismiss: keep,
        root: column({ cls: 'android.widget.FrameLayout', id: 'android:id/parentPanel', look: 'card', padding: 24, gap: 16 }, [
          label('Discard changes?', { id: 'android:id/message', fontSize: 18 }),
          row({ id: 'android:id/buttonPanel', justify: 'end', gap: 8 }, [
            button('Cancel', keep, { id: 'android:id/button2', look: 'plain' }),
            button('Discard', () => context.finish(), { id: 'android:id/button1', look: 'plain' }),
          ]),
        ]),
      });
    }
    const close = (): void => {
      if (dirty) ui.confirmDiscard = true;
      else context.finish();
    };
    return {
      root: column({}, [
        row({ cls: 'android.view.ViewGroup', id: cid('toolbar'), height: 64, align: 'center', padding: [4, 0, 8, 0] }, [
          iconButton('close', 'Cancel', close, { id: cid('toolbar_close') }),
          label(ui.mode === 'create' ? 'Create contact' : 'Edit contact', { id: cid('toolbar_title'), fontSize: 22, width: 'fill' }),
          button('Save', save, { id: cid('toolbar_button'), width: 'wrap' }),
        ]),
        scrollView('editor', { id: cid('editors') }, [
          column({ padding: [0, 16, 0, 16], align: 'center' }, [
            view('android.widget.ImageView', { id: cid('photo'), desc: 'Add contact photo', icon: 'camera', width: 96, height: 96, look: 'filled', onTap: () => context.toast('No camera'), flags: { clickable: true, focusable: true } }),
          ]),
          ...editorFields(ui),
        ]),
      ]),
      overlays,
      onBack: () => {
        if (dirty) {
          ui.confirmDiscard = true;
          return true;
        }
        return false;
      },
    };
  },
});

/**
 * Google Contacts (`com.google.android.contacts`): the list (`PeopleActivity`) with a
 * search field and favourites section; a contact page (`QuickContactActivity`) with
 * star, edit, and a More options menu whose Delete asks "Delete this contact?"; the
 * editor (`ContactEditorActivity`) with first/last name, company, phones and emails
 * (each with a type spinner: Mobile/Work/Home…), website, birthday, labels, and Save.
 * Leaving the editor with changes asks "Discard changes?".
 */
export const contactsApp: SimApp<ContactsState> = {
  packageName: contactsPackage,
  label: 'Contacts',
  icon: 'person',
  launchActivity: 'com.android.contacts.activities.PeopleActivity',
  stateSchema: contactsStateSchema,
  defaultState: defaultContactsState,
  activities: [peopleActivity, quickContact, contactEditor],
};
