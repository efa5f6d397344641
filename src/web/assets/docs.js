// Renders /openapi.json with Swagger UI (served as /assets/docs.js next to the swagger-ui-dist bundle).
// No validator badge (it would call an outside service) and requests only to this origin.
'use strict'

window.SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  validatorUrl: null,
  deepLinking: true,
  tryItOutEnabled: false,
  defaultModelsExpandDepth: 0,
})
