export default async function globalTeardown(): Promise<void> {
  const stops = (globalThis as { __signalboxTestStops?: (() => Promise<void>)[] }).__signalboxTestStops ?? [];
  for (const stop of stops.reverse()) await stop();
}
