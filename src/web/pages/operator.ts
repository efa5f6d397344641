import { html } from '../html.ts'
import { layout, PAUSED_NOTICE, type Page } from '../layout.ts'
import { REASON_CODES } from '../../schemas/moderation.ts'

const TARGETS = ['contribution', 'memory_revision', 'feedback'] as const

/** Every moderation act is published in the ledger with one of the documented reason codes. */
const reasonCode = () =>
  html`<label
    >Reason code
    <select name="reason_code" required>
      <option value="">choose…</option>
      ${REASON_CODES.map((code) => html`<option>${code}</option>`)}
    </select></label
  >`

/**
 * `/operator`: the console over POST /api/operator. The page itself holds no data; its script
 * (assets/operator.js) keeps the key in this tab's sessionStorage and sends it in request bodies.
 */
export function operatorPage(): Page {
  return layout(
    { title: 'Operator console', current: 'operator', scripts: ['/assets/operator.js'] },
    html`<h1>Operator console</h1>
      <p class="lead">
        For the operators of this server. The key stays in this browser tab (sessionStorage) and is sent only in request
        bodies to <code>/api/operator</code>; never in a cookie or a URL. Every action is audited.
      </p>
      <noscript
        ><p class="problem">
          The operator console needs JavaScript. The same actions are available with <code>npm run operator</code> or
          <code>POST /api/operator</code>.
        </p></noscript
      >
      <section aria-labelledby="key-h" id="key-section">
        <h2 id="key-h">Operator key</h2>
        <form id="key-form" class="inline" method="post" action="/operator">
          <label for="operator-key">Operator key</label>
          <input id="operator-key" name="operator_key" type="password" autocomplete="off" required minlength="16" />
          <button type="submit">Use this key</button>
        </form>
        <p id="key-state">No key in this tab.</p>
        <button type="button" id="forget" hidden>Forget the key</button>
      </section>
      <p id="status" role="status" aria-live="polite"></p>
      <div id="console" hidden data-paused-notice="${PAUSED_NOTICE}">
        <section aria-labelledby="drafts-h">
          <h2 id="drafts-h">Pending drafts</h2>
          <button type="button" data-reload>Reload queues</button>
          <div id="drafts" class="queue"></div>
        </section>
        <section aria-labelledby="reports-h">
          <h2 id="reports-h">Open reports</h2>
          <div id="reports" class="queue"></div>
        </section>
        <section aria-labelledby="privacy-h">
          <h2 id="privacy-h">Open privacy requests</h2>
          <div id="privacy" class="queue"></div>
        </section>
        <section aria-labelledby="moderate-h">
          <h2 id="moderate-h">Moderation</h2>
          <form id="moderate" class="panel">
            <fieldset>
              <legend>Quarantine or release content</legend>
              <label
                >Type
                <select name="target_type">
                  ${TARGETS.map((t) => html`<option>${t}</option>`)}
                </select></label
              >
              <label>Id <input name="target_id" type="number" min="1" required /></label>
              ${reasonCode()}
              <label>Reason (private) <input name="reason" required maxlength="1000" /></label>
              <button type="submit" name="op" value="quarantine">Quarantine</button>
              <button type="submit" name="op" value="release">Release</button>
            </fieldset>
          </form>
          <form id="participant" class="panel">
            <fieldset>
              <legend>Suspend or reinstate a participant</legend>
              <label>Participant id <input name="participant_id" required pattern="[0-9a-fA-F-]{36}" /></label>
              ${reasonCode()}
              <label>Reason (private) <input name="reason" required maxlength="1000" /></label>
              <button type="submit" name="op" value="suspend_participant">Suspend</button>
              <button type="submit" name="op" value="reinstate_participant">Reinstate</button>
            </fieldset>
          </form>
          <form id="writes" class="panel">
            <fieldset>
              <legend>All writes</legend>
              ${reasonCode()}
              <label>Reason (private) <input name="reason" maxlength="1000" /></label>
              <button type="submit" name="op" value="pause_writes">Pause writes</button>
              <button type="submit" name="op" value="resume_writes">Resume writes</button>
            </fieldset>
          </form>
        </section>
        <section aria-labelledby="audit-h">
          <h2 id="audit-h">Audit log, newest first</h2>
          <p class="hint">Changes only: reading the queues and this log is not recorded.</p>
          <ol id="audit" class="audit"></ol>
        </section>
      </div>
      <dialog id="confirm" aria-labelledby="confirm-h">
        <h2 id="confirm-h">Are you sure?</h2>
        <p id="confirm-text"></p>
        <button type="button" id="confirm-no">Cancel</button>
        <button type="button" id="confirm-yes">Confirm</button>
      </dialog>`,
  )
}
