/**
 * node bench/latency.ts '{"urls": [...], "count": N}': one request at a time against the server and
 * prints the sorted milliseconds as JSON. Run as its own process by latency() (bench/load.ts): the
 * bench's process has just driven tens of thousands of requests through autocannon, and for seconds
 * after that its own heap is collected in full about every 100 ms, each collection holding up
 * whichever request it lands on by 10-20 ms; timed from there, the slowest of the server's answers
 * were the load generator's pauses.
 */
const { urls, count } = JSON.parse(process.argv[2] as string) as { urls: string[]; count: number }

/** Requests answered before the run is timed: the first loads and compiles the action's code. */
const WARM_UP = 3

const fetchOne = async (url: string) => {
  const res = await fetch(url)
  await res.arrayBuffer()
  if (!res.ok) throw new Error(`${url}: ${res.status}`)
}

for (let i = 0; i < WARM_UP; i++) await fetchOne(urls[i % urls.length] as string)
const times: number[] = []
const started = performance.now()
for (let i = 0; i < count; i++) {
  const t = performance.now()
  await fetchOne(urls[i % urls.length] as string)
  times.push(performance.now() - t)
}
const elapsed = performance.now() - started
process.stdout.write(JSON.stringify({ times: times.sort((a, b) => a - b), elapsed }))
