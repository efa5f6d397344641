/** The spec's bounds of the simulation parameters, and the values used when one is omitted. */
export const PARAMETER_BOUNDS = {
  power: { minimum: 0, maximum: 5 },
  hours: { minimum: 0, maximum: 24 },
  resolution: { minimum: 0.000001, maximum: 1 },
} as const

export const PARAMETER_DEFAULTS = { power: 1, hours: 8, resolution: 0.01 } as const

export interface SimulationParameters {
  power: number
  hours: number
  resolution: number
}

/**
 * Fills in defaults and refuses values outside the bounds. The HTTP schema refuses them first (400);
 * this guard keeps the pure models honest when called directly.
 */
export function parameters(input: Partial<SimulationParameters>): SimulationParameters {
  const out: SimulationParameters = {
    power: input.power ?? PARAMETER_DEFAULTS.power,
    hours: input.hours ?? PARAMETER_DEFAULTS.hours,
    resolution: input.resolution ?? PARAMETER_DEFAULTS.resolution,
  }
  for (const name of ['power', 'hours', 'resolution'] as const) {
    const { minimum, maximum } = PARAMETER_BOUNDS[name]
    const value = out[name]
    if (!Number.isFinite(value) || value < minimum || value > maximum) {
      throw new RangeError(`${name} must be between ${minimum} and ${maximum}`)
    }
  }
  return out
}
