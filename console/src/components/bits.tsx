import { Fragment, useEffect, useState, type ReactNode } from 'react';
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

/**
 * Text from the API in words, where what is between backticks is a literal to copy (an event or field name, a
 * visitor's ID): those parts show as code.
 */
export function Words({ text }: { text: string }) {
  return <>{text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : <Fragment key={i}>{part}</Fragment>))}</>;
}

/** Why a control beside it is disabled; the control points at it with `aria-describedby={id}`. */
export function WhyNot({ id, children }: { id: string; children: ReactNode }) {
  return (
    <span id={id} className="muted why-not">
      {children}
    </span>
  );
}

export function Help({ help }: { help: { explanation: string; fix: string } | null }) {
  if (help === null) return null;
  return (
    <div className="help">
      <p>
        <Words text={help.explanation} />
      </p>
      <p>
        <strong>Fix: </strong>
        <Words text={help.fix} />
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
            <dd>
              <Words text={fact.value} />
            </dd>
          </Fragment>
        ))}
      </dl>
    </details>
  );
}
