import { Fragment, useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { notify } from './Toasts';

/** Copies `text`; says "Copied" for two seconds, so a second copy is confirmed too. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return undefined;
    const timer = setTimeout(() => setCopied(false), 2_000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <Button
      className="button small"
      onPress={() => {
        setCopied(false);
        // No clipboard outside a secure context (plain http to a remote host).
        (navigator.clipboard?.writeText(text) ?? Promise.reject(new Error('no clipboard'))).then(
          () => setCopied(true),
          () => notify('The browser refused to copy: select the text and copy it yourself.'),
        );
      }}
    >
      {copied ? 'Copied' : label}
    </Button>
  );
}

export function Status({ status, testMode }: { status: string; testMode?: boolean }) {
  return <span className={`badge ${status}`}>{testMode && status === 'delivered' ? 'delivered (test)' : status}</span>;
}

export function Loading({ what }: { what: string }) {
  return <p className="loading" aria-live="polite">Loading {what}…</p>;
}

export function ErrorNote({ error }: { error: unknown }) {
  return (
    <p role="alert" className="form-error">
      {error instanceof Error ? error.message : 'Something went wrong.'}
    </p>
  );
}

export function Help({ help }: { help: { explanation: string; fix: string } | null }) {
  if (help === null) return null;
  return (
    <div className="help">
      <p>{help.explanation}</p>
      <p>
        <strong>Fix: </strong>
        {help.fix}
      </p>
    </div>
  );
}

/** Labelled values (a step's codes and IDs, a change's before and after), folded away under `summary`. */
export function FactDetails({ summary, facts }: { summary: string; facts: { label: string; value: string }[] }) {
  if (facts.length === 0) return null;
  return (
    <details>
      <summary>{summary}</summary>
      <dl className="facts">
        {facts.map((fact) => (
          <Fragment key={fact.label}>
            <dt>{fact.label}</dt>
            <dd>{fact.value}</dd>
          </Fragment>
        ))}
      </dl>
    </details>
  );
}
