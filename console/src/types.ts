/** Shapes of the console API's answers that the contract (contract/views.ts) does not declare yet. */

export interface Help {
  label: string;
  explanation: string;
  fix: string;
}
