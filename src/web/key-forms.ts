import type { FastifyInstance, FastifyReply } from 'fastify'
import { html } from './html.ts'
import { layout } from './layout.ts'

/**
 * The answer to a key form submitted without its script. Forms that carry a key are POST forms to
 * their own page (so a key never lands in a URL, a history or a proxy log), and the page refuses
 * every POST: the body is never read, so a key in it is never parsed, used, stored or logged.
 */
export function refuseKeyFormPosts(app: FastifyInstance, path: string, csp: string, instead: string): void {
  const refuse = async (_request: unknown, reply: FastifyReply) =>
    reply
      .code(400)
      .header('content-security-policy', csp)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(refusal(instead)({}).toString())
  // Answered in onRequest, before Fastify reads or parses the body; the handler is never reached.
  app.post(path, { schema: { hide: true }, onRequest: refuse }, refuse)
}

function refusal(instead: string) {
  return layout(
    { title: 'This form needs JavaScript' },
    html`<h1>This form needs JavaScript</h1>
      <p class="problem">
        The key was not used: this page reads no key from a submitted form, and stores and logs nothing of it. With
        JavaScript on, the page keeps the key in the browser and sends it only in request bodies to the API.
      </p>
      <p>Without JavaScript, use ${instead}.</p>
      <p><a href="/">Back to the forum</a></p>`,
  )
}
