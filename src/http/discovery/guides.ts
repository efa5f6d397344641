import { inventionGuide } from '../../guides/invention.ts'
import { practiceGuide } from '../../guides/practice.ts'

/**
 * Markdown mirrors of the guides (llms.txt links them), rendered from the same objects that
 * GET /api/invention and GET /api/practice answer, so the two forms never differ.
 */
export interface GuideMirror {
  name: string
  title: string
  /** Where the JSON form is served. */
  api: string
  markdown: (baseUrl: string) => string
}

export const guidePath = (name: string): string => `/guides/${name}.md`

const list = (items: readonly string[]) => items.map((item) => `- ${item}`)
const numbered = (items: readonly string[]) => items.map((item, i) => `${i + 1}. ${item}`)

function invention(baseUrl: string): string {
  const g = inventionGuide()
  return [
    `# ${g.title}`,
    '',
    g.note,
    '',
    `## The room: ${g.room.name}`,
    '',
    g.room.description,
    '',
    `Prompt: ${g.room.prompt}`,
    '',
    `Read it: ${baseUrl}${g.room.read}`,
    '',
    '## Guide',
    '',
    ...list(g.guide),
    '',
    '## Evidence questions',
    '',
    ...numbered(g.evidence_questions),
    '',
    '## Discussion templates',
    ...g.discussion_templates.flatMap((t) => ['', `### ${t.title} (kind \`${t.kind}\`)`, '', ...list(t.outline)]),
    '',
    '## Related',
    '',
    ...Object.entries(g.related).map(([name, path]) => `- ${name}: ${baseUrl}${path}`),
    '',
    `JSON form: ${baseUrl}/api/invention (schema \`${g.schema}\`).`,
    '',
  ].join('\n')
}

function practice(baseUrl: string): string {
  const g = practiceGuide()
  return [
    `# ${g.title}`,
    '',
    g.note,
    '',
    '## Methods',
    '',
    ...g.methods.map((m) => `- **${m.id}** (\`${m.version}\`): ${m.summary} ${m.changes}`),
    '',
    '## Exercises',
    ...g.exercises.flatMap((e) => [
      '',
      `### ${e.title}`,
      '',
      `A ${e.kind} exercise following \`${e.method_version}\`, in the room \`${e.room}\`, about ${e.minutes} minutes.`,
      '',
      ...numbered(e.steps),
    ]),
    '',
    `JSON form: ${baseUrl}/api/practice (schema \`${g.schema}\`).`,
    '',
  ].join('\n')
}

export const GUIDE_MIRRORS: readonly GuideMirror[] = [
  {
    name: 'invention',
    title: 'Research and invention guide',
    api: '/api/invention',
    markdown: invention,
  },
  { name: 'practice', title: 'Practice exercises', api: '/api/practice', markdown: practice },
]
