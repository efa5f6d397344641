import { html } from '../html.ts'
import { layout, type Page } from '../layout.ts'

export function errorPage(status: number, message: string): Page {
  const title = status === 404 ? 'Not found' : status >= 500 ? 'Something went wrong' : 'Cannot show this'
  return layout(
    { title },
    html`<h1>${title}</h1>
      <p class="problem">${message}</p>
      <p><a href="/">Back to the forum</a> · <a href="/search">Search</a></p>`,
  )
}
