import { normalCdf, round6, sampleHours } from './numeric.ts'
import { parameters, type SimulationParameters } from './parameters.ts'
import { EVIDENCE_LADDER } from './vocabulary.ts'

const READINGS_PER_HOUR = 12
const EFFECT_PER_POWER = 0.1
const Z_SIGNIFICANT = 1.959964
const Z_POWERED = Z_SIGNIFICANT + 0.841621

/** The expected evidence (z) each rung of the ladder waits for; observation needs one reading. */
const RUNG_Z: Record<(typeof EVIDENCE_LADDER)[number], number> = {
  observation: 0,
  candidate_lesson: 1,
  change_proposed: Z_SIGNIFICANT,
  comparison_run: Z_POWERED,
  transfer_demonstrated_with_limits: 2 * Z_SIGNIFICANT,
}

/** The model as the GET document and docs/workshop.md state it. */
export const HIDDEN_WORLD_MODEL = {
  action: 'hidden_world',
  description:
    'An observer takes noisy readings of a world whose effect size is hidden from them, and climbs the evidence ladder as the ' +
    'expected evidence grows. Closed-form expectations: nothing is random, so equal inputs give equal outputs.',
  parameters: {
    power:
      'Size of the hidden effect: theta = 0.1 * power noise standard deviations per reading (0 = no effect at all).',
    hours: 'Observation time; one reading every 5 minutes, n = floor(12 * hours) readings.',
    resolution:
      'Instrument resolution, in noise standard deviations: readings are rounded to multiples of it, adding rounding error.',
  },
  constants: {
    readings_per_hour: READINGS_PER_HOUR,
    noise_sd: 1,
    effect_per_power: EFFECT_PER_POWER,
    z_significant: Z_SIGNIFICANT,
    z_80_percent_power: Z_POWERED,
    rung_z: RUNG_Z,
  },
  equations: [
    'theta = 0.1 * power',
    'n(t) = floor(12 * t)',
    'sd_q = sqrt(1 + resolution^2 / 12)   (rounding to the resolution adds uniform error of variance resolution^2 / 12)',
    'z(t) = theta * sqrt(n(t)) / sd_q   (expected standardized evidence after t hours)',
    'P_detect(t) = Phi(z(t) - 1.959964) + Phi(-z(t) - 1.959964)   (chance a two-sided 5% test reports an effect; 0.05 when theta = 0)',
    'rung hour = ceil((z_rung * sd_q / theta)^2) / 12, reached when it is at most hours; observation needs n >= 1',
    'smallest_detectable_effect = 2.801585 * sd_q / sqrt(n(hours))   (the effect found with 80% chance by the end)',
  ],
  outputs:
    'hidden_effect, readings, measurement_sd, expected_z, detection_probability, false_alarm_probability, smallest_detectable_effect, ladder (rung, threshold_z, reached, hour), series (hourly), reading.',
}

/** Runs the hidden-world model. Pure and closed-form: at most 26 series points whatever the input. */
export function hiddenWorld(input: Partial<SimulationParameters>) {
  const p = parameters(input)
  const theta = EFFECT_PER_POWER * p.power
  const sd = Math.sqrt(1 + (p.resolution * p.resolution) / 12)
  const readingsAt = (t: number) => Math.floor(READINGS_PER_HOUR * t)
  const zAt = (t: number) => (theta * Math.sqrt(readingsAt(t))) / sd
  const detectAt = (t: number) => normalCdf(zAt(t) - Z_SIGNIFICANT) + normalCdf(-zAt(t) - Z_SIGNIFICANT)
  const n = readingsAt(p.hours)
  const ladder = EVIDENCE_LADDER.map((rung) => {
    const hour = rungHour(RUNG_Z[rung], theta, sd)
    const reached = hour !== null && hour <= p.hours
    return { rung, threshold_z: RUNG_Z[rung], reached, hour: reached ? round6(hour) : null }
  })
  const top = ladder.filter((r) => r.reached).at(-1)?.rung ?? null
  return {
    model: 'hidden_world' as const,
    version: 1 as const,
    parameters: p,
    hidden_effect: round6(theta),
    readings: n,
    measurement_sd: round6(sd),
    expected_z: round6(zAt(p.hours)),
    detection_probability: round6(detectAt(p.hours)),
    false_alarm_probability: round6(2 * normalCdf(-Z_SIGNIFICANT)),
    smallest_detectable_effect: n === 0 ? null : round6((Z_POWERED * sd) / Math.sqrt(n)),
    ladder,
    series: sampleHours(p.hours).map((hour) => ({
      hour: round6(hour),
      readings: readingsAt(hour),
      expected_z: round6(zAt(hour)),
      detection_probability: round6(detectAt(hour)),
    })),
    reading: reading(theta, n, top),
  }
}

/** When the expected evidence first reaches z: the first reading for z = 0, never for a null effect. */
function rungHour(z: number, theta: number, sd: number): number | null {
  if (z === 0) return 1 / READINGS_PER_HOUR
  if (theta === 0) return null
  return Math.ceil(((z * sd) / theta) ** 2) / READINGS_PER_HOUR
}

function reading(theta: number, n: number, top: string | null): string {
  if (n === 0) return 'No readings were taken, so nothing can be said about the hidden world.'
  if (theta === 0) {
    return 'The hidden world has no effect. Any "finding" here is a false alarm, which a 5% test still produces 5% of the time.'
  }
  return top === null || top === 'observation'
    ? 'Readings were taken, but the expected evidence stays below every rung beyond observation: absence of evidence, not evidence of absence.'
    : `The expected evidence reaches the rung "${top}" within the observation time.`
}
