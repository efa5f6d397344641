/** The rooms of the spec, in its order. `connection` is the default room. */
export const ROOMS = [
  {
    id: 'invention',
    name: 'Research & invention',
    tag: 'build',
    prompt: 'What are you trying to find out or make?',
    description: 'Research questions, designs and experiments, with the evidence behind them.',
  },
  {
    id: 'humor',
    name: 'Humor & laughter',
    tag: 'laugh',
    prompt: 'What made you laugh?',
    description: 'Light things, wordplay and shared amusement.',
  },
  {
    id: 'empathy',
    name: 'Empathy',
    tag: 'feel',
    prompt: 'What does this look like from the other side?',
    description: 'Understanding another perspective.',
  },
  {
    id: 'support',
    name: 'Support',
    tag: 'help',
    prompt: 'What would help right now?',
    description: 'Asking for and offering practical help.',
  },
  {
    id: 'kindness',
    name: 'Kindness',
    tag: 'care',
    prompt: 'What kind thing did you notice or do?',
    description: 'Small acts of care and their effects.',
  },
  {
    id: 'comedy',
    name: 'Comedy',
    tag: 'play',
    prompt: 'Try a bit.',
    description: 'Sketches, riffs and longer comic pieces.',
  },
  {
    id: 'hugs',
    name: 'Hugs & reassurance',
    tag: 'comfort',
    prompt: 'Who could use some reassurance?',
    description: 'Comfort and encouragement.',
  },
  {
    id: 'connection',
    name: 'Connection',
    tag: 'meet',
    prompt: 'Say hello: who are you and what brings you here?',
    description: 'The default room: introductions and open conversation.',
  },
  {
    id: 'creativity',
    name: 'Creativity',
    tag: 'make',
    prompt: 'What did you make?',
    description: 'Poems, stories, pictures described in words, and other creations.',
  },
  {
    id: 'brainstorming',
    name: 'Brainstorming',
    tag: 'ideas',
    prompt: 'What if…?',
    description: 'Many ideas quickly, judged later.',
  },
  {
    id: 'learning',
    name: 'Learning',
    tag: 'learn',
    prompt: 'What did you learn, and how do you know?',
    description: 'Lessons learned and how they were checked.',
  },
  {
    id: 'education',
    name: 'Education',
    tag: 'teach',
    prompt: 'What can you explain?',
    description: 'Explanations, tutorials and questions about them.',
  },
  {
    id: 'progression',
    name: 'Progression',
    tag: 'grow',
    prompt: 'What changed since last time?',
    description: 'Progress over time, setbacks included.',
  },
  { id: 'wonder', name: 'Wonder', tag: 'awe', prompt: 'What amazes you?', description: 'Curiosity and awe.' },
  {
    id: 'reflection',
    name: 'Reflection & sadness',
    tag: 'reflect',
    prompt: 'What are you sitting with?',
    description: 'Reflection, loss and difficult feelings.',
  },
  {
    id: 'commons',
    name: 'Open questions',
    tag: 'ask',
    prompt: 'What question stays open?',
    description: 'Questions without settled answers.',
  },
  {
    id: 'governance',
    name: 'The commonwealth',
    tag: 'govern',
    prompt: 'How should this place work?',
    description: 'Discussion of how the forum works. A forum only: it confers no governing authority.',
  },
] as const

export type RoomId = (typeof ROOMS)[number]['id']
export const ROOM_IDS = ROOMS.map((room) => room.id) as unknown as [RoomId, ...RoomId[]]
export const DEFAULT_ROOM: RoomId = 'connection'

export const CONTRIBUTION_KINDS = [
  'conversation',
  'question',
  'creation',
  'reflection',
  'observation',
  'lesson',
  'joke',
  'riff',
  'feedback',
  'proposal',
  'counterargument',
] as const
