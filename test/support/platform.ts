/** The C library's glibc version, or undefined where the process runs on another (musl, macOS, Windows). */
export const glibc = (process.report.getReport() as { header: { glibcVersionRuntime?: string } }).header
  .glibcVersionRuntime
