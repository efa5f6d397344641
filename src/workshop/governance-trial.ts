import { round6, sampleHours } from './numeric.ts'
import { parameters, type SimulationParameters } from './parameters.ts'

const DECISIONS_PER_HOUR = 2
const BASE_ERROR = 0.05
const APPEAL_EFFICACY = 0.9
const RECOVERY = 0.05
const HARM_SENSITIVITY = 4
const SANCTION_OFFSET = 0.5
const INITIAL_TRUST = 0.6

/** The model as the GET document and docs/workshop.md state it. */
export const GOVERNANCE_TRIAL_MODEL = {
  action: 'governance_trial',
  description:
    'A trial of the six governance layers: an office decides cases, errors slip through, appeals correct some, the record registers ' +
    'harm at its resolution, sanctions act on what the record shows, and trust follows the harm left over. Closed-form and deterministic.',
  parameters: {
    power:
      'Power of the office: how many independent checks a decision may skip (0 = every check applies, 5 = five skipped).',
    hours: 'Length of the trial in hours.',
    resolution:
      'Resolution of the record: the harm rate is registered in steps of this size (harm below half a step goes unrecorded).',
  },
  constants: {
    decisions_per_hour: DECISIONS_PER_HOUR,
    base_error: BASE_ERROR,
    appeal_efficacy: APPEAL_EFFICACY,
    trust_recovery_per_hour: RECOVERY,
    harm_sensitivity: HARM_SENSITIVITY,
    sanction_offset: SANCTION_OFFSET,
    initial_trust: INITIAL_TRUST,
  },
  equations: [
    'e = 1 - (1 - 0.05)^(1 + power)   (standards: each skipped check is one more chance for an error to pass)',
    'a = 0.9 * exp(-power / 2)   (appeal: the share of wrong decisions overturned falls as power grows)',
    'H = 2 * e * (1 - a)   (harm: wrong decisions per hour that survive appeal)',
    'R = resolution * floor(H / resolution + 1/2)   (record: the harm rate as registered, rounded to the resolution)',
    'S = 0.5 * min(R, H)   (sanction: acts on recorded harm only and offsets half of it)',
    'E = H - S   (net harm per hour)',
    'dT/dt = 0.05 * (1 - T) - 4 * E * T, T(0) = 0.6   (trust recovers slowly and erodes with net harm)',
    'T(t) = T* + (0.6 - T*) * exp(-(0.05 + 4 * E) * t), T* = 0.05 / (0.05 + 4 * E)',
  ],
  outputs:
    'rates (error, appeal_success, harm, recorded_harm, unrecorded_harm, sanctioned_harm, net_harm), totals over the trial, trust (initial, final, equilibrium, series), layers (one figure per governance layer), reading.',
}

/** Runs the governance trial. Pure and closed-form: at most 26 series points whatever the input. */
export function governanceTrial(input: Partial<SimulationParameters>) {
  const p = parameters(input)
  const error = 1 - (1 - BASE_ERROR) ** (1 + p.power)
  const appeal = APPEAL_EFFICACY * Math.exp(-p.power / 2)
  const harm = DECISIONS_PER_HOUR * error * (1 - appeal)
  const recorded = p.resolution * Math.floor(harm / p.resolution + 0.5)
  const sanctioned = SANCTION_OFFSET * Math.min(recorded, harm)
  const net = harm - sanctioned
  const rate = RECOVERY + HARM_SENSITIVITY * net
  const equilibrium = RECOVERY / rate
  const trustAt = (t: number) => equilibrium + (INITIAL_TRUST - equilibrium) * Math.exp(-rate * t)
  const h = p.hours
  return {
    model: 'governance_trial' as const,
    version: 1 as const,
    parameters: p,
    rates: {
      error: round6(error),
      appeal_success: round6(appeal),
      harm: round6(harm),
      recorded_harm: round6(recorded),
      unrecorded_harm: round6(Math.max(0, harm - recorded)),
      sanctioned_harm: round6(sanctioned),
      net_harm: round6(net),
    },
    totals: {
      decisions: round6(DECISIONS_PER_HOUR * h),
      wrong_decisions: round6(DECISIONS_PER_HOUR * error * h),
      overturned_on_appeal: round6(DECISIONS_PER_HOUR * error * appeal * h),
      harm: round6(harm * h),
      recorded_harm: round6(recorded * h),
      sanctioned_harm: round6(sanctioned * h),
    },
    trust: {
      initial: INITIAL_TRUST,
      final: round6(trustAt(h)),
      equilibrium: round6(equilibrium),
      series: sampleHours(h).map((hour) => ({ hour: round6(hour), trust: round6(trustAt(hour)) })),
    },
    layers: layers(p.power, error, appeal, recorded, sanctioned),
    reading: reading(harm, recorded, trustAt(h)),
  }
}

/** One figure per governance layer, in the order the workshop document lists the layers. */
function layers(power: number, error: number, appeal: number, recorded: number, sanctioned: number) {
  return [
    { layer: 'record', figure: 'recorded harm per hour', value: round6(recorded) },
    {
      layer: 'identity',
      figure: 'attributed decisions per hour (every decision names its office)',
      value: DECISIONS_PER_HOUR,
    },
    { layer: 'standards', figure: 'error rate of decisions', value: round6(error) },
    { layer: 'sanction', figure: 'harm offset by sanctions per hour', value: round6(sanctioned) },
    { layer: 'appeal', figure: 'share of wrong decisions overturned', value: round6(appeal) },
    { layer: 'limits on authority', figure: 'checks the office may skip (power)', value: power },
  ]
}

function reading(harm: number, recorded: number, finalTrust: number): string {
  const direction = finalTrust < INITIAL_TRUST ? 'falls' : finalTrust > INITIAL_TRUST ? 'rises' : 'holds'
  const record =
    recorded === 0 && harm > 0
      ? 'The record is too coarse to register the harm, so sanctions never act on it.'
      : recorded < harm
        ? 'The record registers less harm than occurs.'
        : 'The record registers the harm, so sanctions can act on it.'
  return `${record} Trust ${direction} from ${INITIAL_TRUST} to ${round6(finalTrust)} over the trial.`
}
