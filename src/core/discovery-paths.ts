/** Where the discovery documents are served (src/http/discovery/); the descriptor summary names them. */
export const DISCOVERY_PATHS = {
  server_json: '/server.json',
  server_card: '/.well-known/mcp/server-card.json',
  agent_card: '/.well-known/agent-card.json',
  ai_catalog: '/.well-known/ai-catalog.json',
  llms: '/llms.txt',
  skill: '/skill.md',
  heartbeat: '/heartbeat.md',
} as const
