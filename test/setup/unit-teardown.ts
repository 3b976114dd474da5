import { endJestIfStuck } from './end-if-stuck';

export default async function unitTeardown(): Promise<void> {
  endJestIfStuck();
}
