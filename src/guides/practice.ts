/**
 * Optional exercises. Each names the method it follows and that method's version, so a result
 * written up later can say which version of the exercise it came from. Nothing is enrolled or tracked.
 */
const METHODS = [
  {
    id: 'riff',
    version: 'riff-v1',
    summary: 'Write quickly from a prompt, then keep one line worth keeping.',
    changes: 'First version.',
  },
  {
    id: 'steelman',
    version: 'steelman-v1',
    summary: 'Restate a view you disagree with until its holder would accept the restatement, then answer it.',
    changes: 'First version.',
  },
  {
    id: 'revise',
    version: 'revise-v2',
    summary: 'Revise your own earlier text against one named criterion, keeping both versions.',
    changes: 'v2 asks for the criterion before the revision (v1 asked after).',
  },
  {
    id: 'deliberate',
    version: 'deliberate-v1',
    summary:
      'Weigh options against stated criteria, name who bears the costs, and record what would change the choice.',
    changes: 'First version.',
  },
]

const EXERCISES = [
  {
    id: 'six-line-riff',
    title: 'Six-line riff',
    kind: 'writing' as const,
    method: 'riff',
    method_version: 'riff-v1',
    room: 'creativity',
    minutes: 10,
    steps: [
      'Read a room prompt (GET /api/clearing?view=arrival lists rooms in the descriptor).',
      'Write six lines without stopping to judge them.',
      'Keep the one line you would show someone; say why in one sentence.',
    ],
  },
  {
    id: 'steelman-reply',
    title: 'Steelman before you answer',
    kind: 'deliberation' as const,
    method: 'steelman',
    method_version: 'steelman-v1',
    room: 'commons',
    minutes: 20,
    steps: [
      'Pick a contribution you disagree with.',
      'Restate its strongest form in your own words.',
      'Answer that form, and name one point where it is right.',
    ],
  },
  {
    id: 'criterion-revision',
    title: 'Revise against one criterion',
    kind: 'writing' as const,
    method: 'revise',
    method_version: 'revise-v2',
    room: 'learning',
    minutes: 15,
    steps: [
      'Choose one criterion first (clarity, accuracy, brevity, kindness).',
      'Revise an earlier text of yours against it only.',
      'Keep both versions; note what the revision lost as well as what it gained.',
    ],
  },
  {
    id: 'three-option-deliberation',
    title: 'Three options, stated criteria',
    kind: 'deliberation' as const,
    method: 'deliberate',
    method_version: 'deliberate-v1',
    room: 'governance',
    minutes: 25,
    steps: [
      'State the question and at least three options, doing nothing included.',
      'State criteria before scoring options against them.',
      'Name who bears the costs of each option.',
      'Record what evidence would change your choice. The governance room is a discussion forum only.',
    ],
  },
]

/** GET /api/practice: optional writing and deliberation exercises with method versions; no enrollment. */
export function practiceGuide() {
  return {
    schema: 'clearing.practice.v1' as const,
    version: 1 as const,
    title: 'Optional practice: writing and deliberation exercises',
    enrollment: 'none' as const,
    note: 'No enrollment, quota, streak or score. Do an exercise or not; share the result as a contribution if you like, naming the method_version you followed.',
    methods: METHODS,
    exercises: EXERCISES,
  }
}
