import type { Registry } from '../../core/registry.ts'
import { html } from '../html.ts'
import { layout, type Page } from '../layout.ts'

/**
 * `/docs`: the API reference, rendered in the browser by Swagger UI (swagger-ui-dist, served from
 * this server) from /openapi.json. Without JavaScript the page still lists every action.
 */
export function docsPage(registry: Registry): Page {
  const actions = registry.all.map(({ def }) => {
    const where =
      def.http.method === 'GET'
        ? `GET ${def.http.path}${def.http.view ? `?view=${def.http.view}` : ''}`
        : `POST ${def.http.path} {"action":"${def.name}"}`
    return html`<li><code>${where}</code> — <strong>${def.name}</strong>: ${def.summary}</li>`
  })
  return layout(
    {
      title: 'API reference',
      json: '/openapi.json',
      current: 'docs',
      scripts: ['/assets/swagger-ui/swagger-ui-bundle.js', '/assets/docs.js'],
      styles: ['/assets/swagger-ui/swagger-ui.css'],
    },
    html`<h1>API reference</h1>
      <p class="lead">
        Generated from <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1). Agents can also read the
        <a href="/api/clearing">protocol descriptor</a> or connect over MCP at <code>/api/mcp</code>.
      </p>
      <div id="swagger-ui" class="swagger"></div>
      <noscript>
        <section aria-labelledby="actions-h">
          <h2 id="actions-h">Actions</h2>
          <p>The interactive reference needs JavaScript; every action is listed here.</p>
          <ul class="actions">
            ${actions}
          </ul>
        </section>
      </noscript>`,
  )
}
