/**
 * Unmaps the pages of the node executable that the process has read, so that only those it goes on
 * using come back: the server calls it once started and once quiet after work (main.ts).
 *
 * The node binary is 120 MB of code and read-only data (V8 and its start-up snapshot, ICU's data,
 * Node's built-in JavaScript sources), and every page of it the process touches counts in its RSS
 * from then on, with its neighbours (the kernel maps up to 64 KB around a fault). Starting touches
 * much that serving never does again: an idle server had 48-49 MB of the binary resident, and after
 * the bench's reads at 1M contributions 49 MB; unmapped once started, 29-33 MB came back under the
 * same reads. madvise(MADV_DONTNEED) only takes the pages out of the process's page tables: they stay
 * in the kernel's page cache, and a page used again is mapped back by a minor fault, without reading
 * the disk.
 *
 * Only the executable's mappings that cannot be written and hold no page of the process's own are
 * unmapped: for a private mapping MADV_DONTNEED discards the process's copy of a page it wrote to
 * (the relocations the loader wrote before it made them read-only), which the file's page would then
 * replace. Those are told apart by the kernel's own count in /proc/self/smaps.
 *
 * Linux only (smaps, madvise); elsewhere, or where koffi cannot call madvise, the server runs without it.
 */
import { readFileSync, realpathSync } from 'node:fs'
import { libcFunction } from './libc.ts'

/** A mapping of /proc/self/smaps, with the figures (kB) that decide whether it may be unmapped. */
export interface Mapping {
  start: bigint
  end: bigint
  permissions: string
  path: string
  residentKb: number
  /** Pages of a file mapping that the process wrote to and now holds a copy of its own of. */
  anonymousKb: number
  privateDirtyKb: number
}

const HEADER = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/
const FIGURE = /^(Rss|Anonymous|Private_Dirty):\s+(\d+) kB$/
const FIELDS = { Rss: 'residentKb', Anonymous: 'anonymousKb', Private_Dirty: 'privateDirtyKb' } as const

export function parseSmaps(text: string): Mapping[] {
  const mappings: Mapping[] = []
  for (const line of text.split('\n')) {
    const header = HEADER.exec(line)
    if (header) {
      const [, start = '0', end = '0', permissions = '', path = ''] = header
      mappings.push({
        start: BigInt(`0x${start}`),
        end: BigInt(`0x${end}`),
        permissions,
        path,
        residentKb: 0,
        anonymousKb: 0,
        privateDirtyKb: 0,
      })
      continue
    }
    const figure = FIGURE.exec(line)
    const current = mappings.at(-1)
    if (figure && current) current[FIELDS[figure[1] as keyof typeof FIELDS]] = Number(figure[2])
  }
  return mappings
}

/** This process's mappings, with what the kernel counts in them now. */
export function processMappings(): Mapping[] {
  return parseSmaps(readFileSync('/proc/self/smaps', 'utf8'))
}

/** The file this process runs, its links resolved, as the kernel names its mappings. */
export function executableFile(): string {
  return realpathSync(process.execPath)
}

/** The mappings of `file` whose resident pages are all the file's own, unwritten and unwritable. */
export function unmappable(mappings: Mapping[], file: string): Mapping[] {
  return mappings.filter(
    (m) =>
      m.path === file &&
      !m.permissions.includes('w') &&
      m.anonymousKb === 0 &&
      m.privateDirtyKb === 0 &&
      m.residentKb > 0,
  )
}

/** Unmaps the executable's clean pages; returns how many kB were resident in what it unmapped. */
export type ReleaseExecutable = () => number

const MADV_DONTNEED = 4

export async function loadExecutableRelease(): Promise<ReleaseExecutable | undefined> {
  if (process.platform !== 'linux') return undefined
  const madvise = await libcFunction('int madvise(uintptr_t addr, size_t length, int advice)')
  if (!madvise) return undefined
  const executable = executableFile()
  return () => {
    let released = 0
    for (const m of unmappable(processMappings(), executable)) {
      if (madvise(m.start, Number(m.end - m.start), MADV_DONTNEED) === 0) released += m.residentKb
    }
    return released
  }
}
