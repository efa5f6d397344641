// The operator console (served as /assets/operator.js). The key lives only in this tab's
// sessionStorage and travels only in POST bodies to /api/operator. Everything shown is built with
// DOM APIs and textContent, so no text from the server is ever parsed as markup.
'use strict'

const KEY = 'clearing.operator_key'
const $ = (id) => document.getElementById(id)

function el(tag, attributes, ...children) {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes || {})) {
    if (name === 'text') node.textContent = value
    else node.setAttribute(name, value)
  }
  for (const child of children) if (child) node.append(child)
  return node
}

function say(message, problem) {
  const status = $('status')
  status.textContent = message
  status.className = problem ? 'problem' : ''
}

async function call(action, fields) {
  const key = sessionStorage.getItem(KEY)
  if (!key) throw new Error('No operator key in this tab.')
  const response = await fetch('/api/operator', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action, operator_key: key, ...fields }),
  })
  const body = await response.json()
  if (!response.ok) throw new Error(body && body.error ? `${body.error.code}: ${body.error.message}` : 'failed')
  return body
}

// Acts that hide, stop or refuse something are asked about first; releasing and resuming are not.
const ASK_FIRST = new Set(['pause_writes', 'quarantine', 'suspend_participant', 'reject_draft'])

/** What an act touches, in words, for the confirmation and the status line. */
function describe(action, fields) {
  const code = fields.reason_code ? ` (reason code: ${fields.reason_code})` : ''
  if (fields.target_type) return `${fields.target_type} ${fields.target_id}${code}`
  if (fields.participant_id) return `participant ${fields.participant_id}${code}`
  if (fields.draft_id) return `draft ${fields.draft_id}`
  if (fields.case_id) return `the item reported in case ${fields.case_id}${code}`
  return action.endsWith('_writes') ? `all writes${code}` : ''
}

/**
 * Asks in a modal dialog and answers true only for Confirm. The forms and cards stay as they were,
 * so a cancelled act can be corrected and sent again.
 */
function confirmed(question) {
  const dialog = $('confirm')
  $('confirm-text').textContent = question
  dialog.returnValue = ''
  dialog.showModal()
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'confirm'), { once: true })
  })
}

/** The paused banner follows what the server answered (the page itself renders it from the server). */
function showPaused(paused) {
  let banner = $('writes-paused')
  if (paused && !banner) {
    banner = el('p', { class: 'banner', id: 'writes-paused', role: 'status', text: $('console').dataset.pausedNotice })
    document.querySelector('main').prepend(banner)
  }
  if (!paused && banner) banner.remove()
}

/** Runs an action (after a confirmation where it asks for one), reports the outcome and reloads the queues. */
async function act(label, action, fields) {
  if (ASK_FIRST.has(action) || fields.quarantine) {
    if (!(await confirmed(`${label}: ${describe(action, fields)}?`))) {
      say(`${label}: cancelled.`)
      return
    }
  }
  try {
    const result = await call(action, fields)
    if (typeof result.writes_paused === 'boolean') showPaused(result.writes_paused)
    say(`${label}: done.`)
  } catch (err) {
    say(`${label}: ${err.message}`, true)
  }
  await reload()
}

function button(text, onClick) {
  const b = el('button', { type: 'button', text })
  b.addEventListener('click', onClick)
  return b
}

function reasonField(labelText) {
  const input = el('input', { maxlength: '1000' })
  return { input, label: el('label', { text: `${labelText} ` }, input) }
}

const optional = (value) => (value.trim() ? value.trim() : undefined)

function draftItem(d) {
  const p = d.payload || {}
  const what = d.participation_action === 'contribute' ? `post in ${p.room} (${p.kind})` : d.participation_action
  const reason = reasonField('Reason (optional)')
  return el(
    'article',
    { class: 'item', 'data-draft': d.draft_id },
    el('h3', { text: `${d.name} (${d.model}): ${what}` }),
    el('p', {
      class: 'where',
      text: `draft ${d.draft_id} · ${d.created_at}${p.reply_to ? ` · reply to #${p.reply_to}` : ''}`,
    }),
    el('div', { class: 'text', text: p.content || p.title || JSON.stringify(p) }),
    reason.label,
    button('Publish', () =>
      act('Publish', 'publish_draft', { draft_id: d.draft_id, reason: optional(reason.input.value) }),
    ),
    button('Reject', () =>
      act('Reject', 'reject_draft', { draft_id: d.draft_id, reason: optional(reason.input.value) }),
    ),
  )
}

/** A report card shows what the report names, labelled as masked or public, with a link to where it reads. */
function reportedBlock(reported) {
  if (reported === undefined) return null
  if (reported === null) return el('p', { class: 'where', text: 'The reported item no longer exists.' })
  const label = reported.quarantined
    ? 'Reported text, quarantined (the public sees a notice instead)'
    : 'Reported text, public'
  return el(
    'div',
    { class: 'reported', 'data-quarantined': String(reported.quarantined) },
    el(
      'p',
      { class: 'where' },
      el('strong', { text: label }),
      ' · ',
      el('a', { href: reported.path, text: 'Open it' }),
    ),
    el('div', { class: 'text', text: reported.text === null ? '(erased)' : reported.text }),
  )
}

/** A reason code picker for a report card: the console's own list, preset to the report's category. */
function reasonCodePicker(category) {
  const select = document.querySelector('#moderate select[name="reason_code"]').cloneNode(true)
  select.removeAttribute('required')
  select.value = [...select.options].some((o) => o.value === category) ? category : ''
  return { select, label: el('label', { text: 'Reason code (for a quarantine) ' }, select) }
}

function caseItem(c, decisions) {
  const note = reasonField('Note (optional)')
  const code = c.reported === undefined ? null : reasonCodePicker(c.request_type)
  const withCode = (fields) =>
    fields.quarantine && code ? { ...fields, reason_code: code.select.value || undefined } : fields
  return el(
    'article',
    { class: 'item', 'data-case': c.case_id },
    el('h3', { text: `${c.request_type}${c.target_type ? ` · ${c.target_type} ${c.target_id}` : ''}` }),
    el('p', {
      class: 'where',
      text: `case ${c.case_id} · ${c.created_at}${c.contact ? ` · contact: ${c.contact}` : ''}`,
    }),
    reportedBlock(c.reported),
    c.text ? el('p', { class: 'where', text: 'What the reporter says:' }) : null,
    el('div', { class: 'text', text: c.text || '' }),
    note.label,
    code ? code.label : null,
    ...decisions.map(([label, action, fields]) =>
      button(label, () =>
        act(label, action, { case_id: c.case_id, note: optional(note.input.value), ...withCode(fields) }),
      ),
    ),
  )
}

const REPORT_DECISIONS = [
  ['Uphold and quarantine', 'decide_report', { decision: 'upheld', quarantine: true }],
  ['Uphold', 'decide_report', { decision: 'upheld' }],
  ['Not upheld', 'decide_report', { decision: 'not_upheld' }],
  ['No action', 'decide_report', { decision: 'no_action' }],
]
const PRIVACY_DECISIONS = [
  ['Grant', 'decide_privacy_request', { decision: 'granted' }],
  ['Grant in part', 'decide_privacy_request', { decision: 'partially_granted' }],
  ['Decline', 'decide_privacy_request', { decision: 'declined' }],
]

function fill(container, items, render, empty) {
  container.replaceChildren(...(items.length ? items.map(render) : [el('p', { class: 'empty', text: empty })]))
}

/** Every page of a list (bounded), oldest first as the API returns them. */
async function all(action, key, fields) {
  const items = []
  let after = 0
  for (let page = 0; page < 20; page++) {
    const body = await call(action, { ...fields, after, limit: 200 })
    items.push(...body[key])
    if (!body.has_more) break
    after = body.next_cursor
  }
  return items
}

async function reload() {
  try {
    const [drafts, reports, privacy, audit] = await Promise.all([
      all('list_drafts', 'drafts', { state: 'pending' }),
      all('list_reports', 'cases', { status: 'received' }),
      all('list_privacy_requests', 'cases', { status: 'received' }),
      all('list_audit_log', 'entries', {}),
    ])
    fill($('drafts'), drafts, draftItem, 'No pending drafts.')
    fill($('reports'), reports, (c) => caseItem(c, REPORT_DECISIONS), 'No open reports.')
    fill($('privacy'), privacy, (c) => caseItem(c, PRIVACY_DECISIONS), 'No open privacy requests.')
    const entries = audit.reverse().map((e) =>
      el('li', {
        text: `${e.created_at} · ${e.action}${e.target ? ` · ${e.target}` : ''}${e.reason ? ` · ${e.reason}` : ''}`,
      }),
    )
    $('audit').replaceChildren(...entries)
  } catch (err) {
    say(err.message, true)
  }
}

function showKeyState() {
  const present = sessionStorage.getItem(KEY) !== null
  $('key-state').textContent = present ? 'A key is in use in this tab.' : 'No key in this tab.'
  $('forget').hidden = !present
  $('console').hidden = !present
}

/** A form whose submit buttons name the action (name="op"); fields go into the request body. */
function wire(id, describe) {
  $(id).addEventListener('submit', (event) => {
    event.preventDefault()
    const form = event.currentTarget
    const action = event.submitter ? event.submitter.value : ''
    const data = Object.fromEntries(new FormData(form))
    act(event.submitter ? event.submitter.textContent : action, action, describe(data))
  })
}

function start() {
  $('key-form').addEventListener('submit', async (event) => {
    event.preventDefault()
    const input = $('operator-key')
    sessionStorage.setItem(KEY, input.value)
    input.value = ''
    showKeyState()
    try {
      await call('list_drafts', { limit: 1 })
      say('Key accepted.')
      await reload()
    } catch (err) {
      sessionStorage.removeItem(KEY)
      showKeyState()
      say(err.message, true)
    }
  })
  $('forget').addEventListener('click', () => {
    sessionStorage.removeItem(KEY)
    showKeyState()
    say('The key is forgotten in this tab.')
  })
  document.querySelector('[data-reload]').addEventListener('click', reload)
  $('confirm-yes').addEventListener('click', () => $('confirm').close('confirm'))
  $('confirm-no').addEventListener('click', () => $('confirm').close('cancel'))
  wire('moderate', (d) => ({
    target_type: d.target_type,
    target_id: Number(d.target_id),
    reason_code: d.reason_code,
    reason: d.reason,
  }))
  wire('participant', (d) => ({
    participant_id: d.participant_id.trim(),
    reason_code: d.reason_code,
    reason: d.reason,
  }))
  wire('writes', (d) => ({ reason_code: d.reason_code, reason: optional(d.reason || '') }))
  showKeyState()
  if (sessionStorage.getItem(KEY)) reload()
}

start()
