import assert from 'node:assert/strict'
import { performance } from 'node:perf_hooks'
import { describe, test } from 'node:test'
import { governanceTrial } from '../../src/workshop/governance-trial.ts'
import { hiddenWorld } from '../../src/workshop/hidden-world.ts'
import { normalCdf } from '../../src/workshop/numeric.ts'
import { PARAMETER_BOUNDS } from '../../src/workshop/parameters.ts'

const close = (actual: number | null | undefined, expected: number, tolerance = 2e-6) =>
  assert.ok(
    typeof actual === 'number' && Math.abs(actual - expected) <= tolerance,
    `${actual} is not within ${tolerance} of ${expected}`,
  )

describe('hidden_world', () => {
  test('a hand-computed case: power 2, 12 hours, fine resolution', () => {
    const r = hiddenWorld({ power: 2, hours: 12, resolution: 0.000001 })
    assert.equal(r.hidden_effect, 0.2)
    assert.equal(r.readings, 144)
    assert.equal(r.measurement_sd, 1)
    assert.equal(r.expected_z, 2.4) // 0.2 * sqrt(144) / 1
    close(r.detection_probability, 0.670051) // Phi(2.4 - 1.959964) + Phi(-2.4 - 1.959964)
    close(r.false_alarm_probability, 0.05)
    close(r.smallest_detectable_effect, 0.233465) // 2.801585 / 12
    // Rung hours: ceil((z / 0.2)^2) / 12 readings per hour.
    assert.deepEqual(
      r.ladder.map((rung) => [rung.rung, rung.reached, rung.hour]),
      [
        ['observation', true, 0.083333],
        // 25 readings give z = 1 / sd, just below 1 since any resolution adds rounding error: 26 readings.
        ['candidate_lesson', true, 2.166667],
        ['change_proposed', true, 8.083333], // 97 readings
        ['comparison_run', false, null], // 197 readings > 144
        ['transfer_demonstrated_with_limits', false, null],
      ],
    )
    assert.equal(r.series.length, 13)
    assert.deepEqual(r.series[1], { hour: 1, readings: 12, expected_z: 0.69282, detection_probability: 0.106544 })
    assert.match(r.reading, /change_proposed/)
  })

  test('readings are floor(12 * hours): part of a reading is no reading, whether the part is small or large', () => {
    // 1.3 hours are 15.6 readings and 1.2 hours 14.4: rounding would give 16, a ceiling 15.
    for (const [hours, readings] of [
      [1.3, 15],
      [1.2, 14],
    ] as const) {
      const r = hiddenWorld({ power: 2, hours, resolution: 0.000001 })
      assert.equal(r.readings, readings, `${hours} hours`)
      close(r.expected_z, 0.2 * Math.sqrt(readings))
      close(r.smallest_detectable_effect, 2.801585 / Math.sqrt(readings))
      assert.equal(r.series.at(-1)?.hour, hours)
      assert.equal(r.series.at(-1)?.readings, readings)
    }
  })

  test('resolution adds rounding error: sd = sqrt(1 + r^2 / 12)', () => {
    const r = hiddenWorld({ power: 2, hours: 12, resolution: 1 })
    assert.equal(r.measurement_sd, 1.040833)
    close(r.expected_z, 2.4 / 1.0408329997, 1e-6)
  })

  test('a world without an effect only ever yields false alarms at 5%', () => {
    const r = hiddenWorld({ power: 0, hours: 24 })
    assert.equal(r.expected_z, 0)
    close(r.detection_probability, 0.05)
    assert.deepEqual(
      r.ladder.filter((rung) => rung.reached).map((rung) => rung.rung),
      ['observation'],
    )
    assert.match(r.reading, /false alarm/)
  })

  test('no time, no readings: nothing to say', () => {
    const r = hiddenWorld({ hours: 0 })
    assert.equal(r.readings, 0)
    assert.equal(r.smallest_detectable_effect, null)
    assert.deepEqual(r.series, [{ hour: 0, readings: 0, expected_z: 0, detection_probability: 0.05 }])
    assert.ok(r.ladder.every((rung) => !rung.reached))
  })

  test('defaults are power 1, 8 hours, resolution 0.01', () => {
    assert.deepEqual(hiddenWorld({}).parameters, { power: 1, hours: 8, resolution: 0.01 })
  })
})

describe('governance_trial', () => {
  test('a hand-computed case: power 0, 10 hours, resolution 0.001', () => {
    const r = governanceTrial({ power: 0, hours: 10, resolution: 0.001 })
    // e = 0.05, a = 0.9, H = 2 * 0.05 * 0.1 = 0.01, R = 0.01, S = 0.005, E = 0.005
    assert.deepEqual(r.rates, {
      error: 0.05,
      appeal_success: 0.9,
      harm: 0.01,
      recorded_harm: 0.01,
      unrecorded_harm: 0,
      sanctioned_harm: 0.005,
      net_harm: 0.005,
    })
    // T* = 0.05 / 0.07; T(10) = T* + (0.6 - T*) e^(-0.7)
    close(r.trust.equilibrium, 0.714286)
    close(r.trust.final, 0.657533)
    assert.deepEqual(r.totals, {
      decisions: 20,
      wrong_decisions: 1,
      overturned_on_appeal: 0.9,
      harm: 0.1,
      recorded_harm: 0.1,
      sanctioned_harm: 0.05,
    })
    assert.equal(r.trust.series.length, 11)
    assert.deepEqual(
      r.layers.map((l) => l.layer),
      ['record', 'identity', 'standards', 'sanction', 'appeal', 'limits on authority'],
    )
  })

  test('the record rounds the harm rate to the nearest step of its resolution, up from a half', () => {
    // H = 0.01. At 0.006 a step, H is 1.67 steps: recorded as 2 steps (truncation would record 1).
    const up = governanceTrial({ power: 0, hours: 10, resolution: 0.006 })
    assert.equal(up.rates.recorded_harm, 0.012)
    assert.equal(up.rates.unrecorded_harm, 0)
    assert.equal(up.rates.sanctioned_harm, 0.005) // S = 0.5 * min(R, H)
    assert.equal(up.totals.recorded_harm, 0.12)
    // At 0.003 a step, H is 3.33 steps: recorded as 3 (a ceiling would record 4).
    const down = governanceTrial({ power: 0, hours: 10, resolution: 0.003 })
    assert.equal(down.rates.recorded_harm, 0.009)
    assert.equal(down.rates.unrecorded_harm, 0.001)
    assert.equal(down.rates.sanctioned_harm, 0.0045)
    assert.equal(down.rates.net_harm, 0.0055)
    assert.match(down.reading, /registers less harm than occurs/)
  })

  test('a record too coarse to register harm leaves sanctions idle and trust lower', () => {
    const r = governanceTrial({ power: 0, hours: 10, resolution: 1 })
    assert.equal(r.rates.recorded_harm, 0)
    assert.equal(r.rates.unrecorded_harm, 0.01)
    assert.equal(r.rates.sanctioned_harm, 0)
    close(r.trust.final, 0.573625)
    assert.match(r.reading, /too coarse/)
  })

  test('more power means more errors and fewer successful appeals', () => {
    const r = governanceTrial({ power: 5, hours: 1 })
    close(r.rates.error, 0.264908) // 1 - 0.95^6
    close(r.rates.appeal_success, 0.073876) // 0.9 e^-2.5
    close(r.rates.harm, 0.490675)
    assert.ok(r.trust.final < governanceTrial({ power: 0, hours: 1 }).trust.final)
  })
})

describe('simulations: determinism, bounds and cost', () => {
  const extremes = [
    { power: 0, hours: 0, resolution: PARAMETER_BOUNDS.resolution.minimum },
    { power: 5, hours: 24, resolution: PARAMETER_BOUNDS.resolution.minimum },
    { power: 5, hours: 24, resolution: 1 },
    { power: 0, hours: 24, resolution: 1 },
    { power: 0.000001, hours: 23.999999, resolution: 0.5 },
  ]

  test('equal inputs give equal outputs', () => {
    for (const p of extremes) {
      assert.deepEqual(hiddenWorld(p), hiddenWorld({ ...p }))
      assert.deepEqual(governanceTrial(p), governanceTrial({ ...p }))
      assert.equal(JSON.stringify(hiddenWorld(p)), JSON.stringify(hiddenWorld(p)))
    }
  })

  test('values outside the bounds are refused', () => {
    for (const bad of [
      { power: -0.1 },
      { power: 5.01 },
      { hours: 24.5 },
      { hours: -1 },
      { resolution: 0 },
      { resolution: 2 },
    ]) {
      assert.throws(() => hiddenWorld(bad), RangeError)
      assert.throws(() => governanceTrial(bad), RangeError)
    }
  })

  test('cost stays bounded at the extremes (each run well under 50 ms)', () => {
    let slowest = 0
    for (const p of extremes) {
      for (const run of [hiddenWorld, governanceTrial]) {
        const started = performance.now()
        for (let i = 0; i < 100; i++) run(p)
        slowest = Math.max(slowest, (performance.now() - started) / 100)
      }
    }
    console.log(`slowest simulation at the extremes: ${slowest.toFixed(3)} ms per run`)
    assert.ok(slowest < 50, `slowest run took ${slowest} ms`)
    assert.ok(hiddenWorld(extremes[1] as never).series.length <= 26)
  })

  test('the normal distribution function matches known values', () => {
    close(normalCdf(0), 0.5, 1e-7)
    close(normalCdf(1.959964), 0.975, 1e-6)
    close(normalCdf(-1), 0.158655, 1e-6)
  })
})
