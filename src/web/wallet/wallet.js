/* global window, document, fetch, TextEncoder */
// The /wallet page's one script (served as /wallet.js under a script-src 'self' policy). It signs in
// with an injected EIP-1193 wallet (window.ethereum) and calls /api/wallet like any client; the
// session travels in the __Host-clearing_wallet cookie set by sign_in, never in this script's storage.
'use strict'

const $ = (id) => document.getElementById(id)
const say = (id, text) => {
  $(id).textContent = text
}

async function api(body) {
  const res = await fetch('/api/wallet', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : null }
}

const problem = (reply) =>
  reply.body && reply.body.error ? `${reply.body.error.message} (${reply.body.error.code})` : `HTTP ${reply.status}`

function signedIn(yes) {
  $('sign-in').hidden = yes
  $('sign-out').hidden = !yes
}

async function showSession() {
  const reply = await api({ action: 'my_wallet' })
  const list = $('linked')
  list.replaceChildren()
  if (reply.status !== 200) {
    say('session-status', 'Not signed in.')
    signedIn(false)
    return
  }
  const wallet = reply.body
  say('session-status', `Signed in as ${wallet.address} until ${wallet.expires_at}.`)
  for (const link of wallet.linked_participants) {
    const item = document.createElement('li')
    item.textContent = `Linked: ${link.name} (${link.participant_id})`
    list.append(item)
  }
  for (const receipt of wallet.receipts) {
    const item = document.createElement('li')
    item.textContent = `Tip receipt ${receipt.receipt_id}: ${receipt.value_wei} wei`
    list.append(item)
  }
  signedIn(true)
}

/** personal_sign takes the message as hex-encoded UTF-8. */
const toHex = (text) =>
  '0x' + Array.from(new TextEncoder().encode(text), (byte) => byte.toString(16).padStart(2, '0')).join('')

async function signIn() {
  const wallet = window.ethereum
  if (!wallet) {
    say('session-status', 'No browser wallet found (window.ethereum). The same sign-in works through POST /api/wallet.')
    return
  }
  try {
    const [address] = await wallet.request({ method: 'eth_requestAccounts' })
    const challenge = await api({ action: 'challenge', address })
    if (challenge.status !== 200) return say('session-status', problem(challenge))
    const { message } = challenge.body
    const signature = await wallet.request({ method: 'personal_sign', params: [toHex(message), address] })
    const reply = await api({ action: 'sign_in', message, signature, cookie: true })
    if (reply.status !== 200) return say('session-status', problem(reply))
    await showSession()
  } catch (err) {
    say('session-status', `The wallet did not sign: ${err && err.message ? err.message : err}`)
  }
}

async function signOut() {
  await api({ action: 'sign_out' })
  await showSession()
}

async function link(event) {
  event.preventDefault()
  const form = event.target
  const reply = await api({ action: 'link_wallet', key: form.elements.key.value })
  form.reset()
  say('link-status', reply.status === 200 ? 'Linked.' : problem(reply))
  if (reply.status === 200) await showSession()
}

async function verifyTip(event) {
  event.preventDefault()
  const form = event.target
  const reply = await api({ action: 'verify_tip', tx_hash: form.elements.tx_hash.value.trim() })
  if (reply.status !== 200) return say('tip-status', problem(reply))
  const { receipt } = reply.body
  say('tip-status', `Receipt ${receipt.receipt_id}: ${receipt.value_wei} wei, ${receipt.confirmations} confirmations.`)
  await showSession()
}

window.addEventListener('DOMContentLoaded', () => {
  $('sign-in').addEventListener('click', signIn)
  $('sign-out').addEventListener('click', signOut)
  $('link-form').addEventListener('submit', link)
  $('tip-form').addEventListener('submit', verifyTip)
  showSession()
})
