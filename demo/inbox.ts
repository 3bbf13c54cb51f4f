import { CpeMessagingClient } from '../client/index.ts';
import { escape, shell } from './chrome.ts';
import { translator, type Language, type Text } from './i18n.ts';

/**
 * A small inbox over the messaging API: contacts, conversations (pin, mute, archive) and messages.
 * The demo's backend calls the service with cpe/server's CpeMessagingClient and the demo user's access
 * token (server side only, as the licence key); the pages are server-rendered forms, so they work by
 * keyboard and without a script. A refusal of the service is a CpeApiError, shown on the page.
 */

type Conversation = Awaited<ReturnType<CpeMessagingClient['retrieveConversation']>>;

const DONE: Text[] = ['pin', 'unpin', 'mute', 'unmute', 'archive', 'unarchive'];
/** The word for what a toggle did: `is_pinned` set to true was "Pin". */
export const doneWord = (field: string, on: boolean): Text =>
  field === 'is_pinned' ? (on ? 'pin' : 'unpin') : field === 'is_muted' ? (on ? 'mute' : 'unmute') : on ? 'archive' : 'unarchive';

export function createInbox(options: { serviceUrl: string; accessToken: string }) {
  const messaging = new CpeMessagingClient({ accessToken: options.accessToken, baseUrl: options.serviceUrl });

  return {
    addContact: (username: string, phone: string) => messaging.createContact({ username, phone_number: phone }),
    async update(id: string, field: 'is_pinned' | 'is_muted' | 'archived', value: boolean): Promise<void> {
      await messaging.updateConversation(id, { [field]: value });
    },
    async send(id: string, text: string, sender: 'user' | 'contact'): Promise<void> {
      await messaging.createMessage(id, { text, sender });
    },

    async page(language: Language, basketCount: number, view: { archived: boolean; open?: string; done?: string; error?: string }): Promise<string> {
      const t = translator(language);
      const [conversations, contacts] = await Promise.all([
        messaging.listConversations({ limit: 100, archived: view.archived }).then((page) => page.data),
        messaging.listContacts({ limit: 100 }).then((page) => page.data),
      ]);
      const name = (c: Conversation) => {
        const contact = contacts.find((k) => k.id === c.contact_id);
        return contact ? (contact.display_name ?? contact.username) : (c.group_id ?? c.id);
      };
      // Pinned first, then the most recently active (the API lists newest first).
      const ordered = [...conversations].sort((a, b) => Number(b.is_pinned) - Number(a.is_pinned));
      const query = view.archived ? '?archived=true' : '';
      const items = ordered
        .map((c) => {
          const badges = [c.is_pinned && t('pinned'), c.is_muted && t('muted'), c.archived_at && t('archived')].filter(Boolean).map((b) => `<span class="badge">${b}</span>`).join(' ');
          return `<li><a href="/inbox/${encodeURIComponent(c.id)}${query}"${c.id === view.open ? ' aria-current="page"' : ''}><bdi>${escape(name(c))}</bdi></a> ${badges}</li>`;
        })
        .join('');
      let detail = `<p>${t('chooseConversation')}</p>`;
      let title: string = t('inboxTitle');
      if (view.open) {
        const conversation = await messaging.retrieveConversation(view.open);
        const messages = (await messaging.listMessages(view.open, { limit: 50 })).data.reverse();
        title = name(conversation);
        const toggle = (field: string, on: boolean, onText: Text, offText: Text) =>
          `<form method="post" action="/inbox/${encodeURIComponent(conversation.id)}/update"><input type="hidden" name="field" value="${field}"><input type="hidden" name="value" value="${!on}"><button type="submit" aria-pressed="${on}">${t(on ? offText : onText)}</button></form>`;
        const shown = messages.length
          ? `<ol class="messages">${messages.map((m) => `<li class="${m.sender}"><span class="visually-hidden">${m.sender === 'user' ? t('me') : escape(title)}: </span>${escape(m.text)}</li>`).join('')}</ol>`
          : `<p>${t('noMessages')}</p>`;
        detail = `<h2 id="conversation-title"><bdi>${escape(title)}</bdi></h2>
<div class="toolbar" role="group" aria-labelledby="conversation-title">${toggle('is_pinned', conversation.is_pinned, 'pin', 'unpin')}${toggle('is_muted', conversation.is_muted, 'mute', 'unmute')}${toggle('archived', conversation.archived_at !== null, 'archive', 'unarchive')}</div>
<h3>${t('messages')}</h3>${shown}
<form class="compose" method="post" action="/inbox/${encodeURIComponent(conversation.id)}/messages">
<label for="message-text">${t('message')}</label><textarea id="message-text" name="text" required maxlength="4000" rows="2"></textarea>
<label for="message-sender">${t('from')}</label><select id="message-sender" name="sender"><option value="user">${t('me')}</option><option value="contact">${t('them')}</option></select>
<button type="submit" class="primary">${t('send')}</button></form>`;
      }
      // `done` names what was done: a button's word (translated), else a new contact's username.
      const doneText = view.done && (DONE.includes(view.done as Text) ? t(view.done as Text) : view.done);
      const notice = view.error ? `<p role="alert" class="notice bad">${escape(t('error', { reason: view.error }))}</p>` : `<p role="status" class="notice"${doneText ? '' : ' hidden'}>${doneText ? escape(t('done', { what: doneText })) : ''}</p>`;
      return shell({
        path: view.open ? `/inbox/${view.open}` : '/inbox',
        title,
        language,
        basketCount,
        languageForm: true,
        body: `<h1>${t('inboxTitle')}</h1>${notice}
<div class="inbox">
<section class="panel" aria-labelledby="conversations-title"><h2 id="conversations-title">${t('conversations')}</h2>
<nav aria-label="${escape(`${t('conversations')}: ${t('showInbox')} / ${t('showArchived')}`)}" class="tabs"><a href="/inbox"${view.archived ? '' : ' aria-current="true"'}>${t('showInbox')}</a> <a href="/inbox?archived=true"${view.archived ? ' aria-current="true"' : ''}>${t('showArchived')}</a></nav>
${items ? `<ul class="conversations">${items}</ul>` : `<p>${t('noConversations')}</p>`}
<form class="add-contact" method="post" action="/inbox/contacts"><h3>${t('addContact')}</h3>
<label for="contact-username">${t('username')}</label><input id="contact-username" name="username" required autocomplete="off">
<label for="contact-phone">${t('phone')}</label><input id="contact-phone" name="phone_number" required inputmode="tel" autocomplete="off" dir="ltr">
<button type="submit">${t('add')}</button></form></section>
<section class="panel" aria-label="${escape(title)}">${detail}</section>
</div>`,
      });
    },
  };
}
export type Inbox = ReturnType<typeof createInbox>;
