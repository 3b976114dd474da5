/** What a failed mail or webhook carries: Node's and nodemailer's codes, an SMTP answer. */
interface SendError {
  name?: string;
  code?: string;
  /** nodemailer keeps the system's code (ECONNREFUSED, a certificate's) here when it sets its own. */
  originalCode?: string;
  responseCode?: number;
  response?: string;
  message?: string;
}

/** Node's certificate checks, in words. */
const CERTIFICATE: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its certificate chain ends in a self-signed certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its certificate is not signed by an authority this server trusts',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its certificate is not signed by an authority this server trusts',
  UNABLE_TO_GET_ISSUER_CERT: 'its certificate is not signed by an authority this server trusts',
  CERT_HAS_EXPIRED: 'its certificate has expired',
  CERT_NOT_YET_VALID: 'its certificate is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its certificate is for another host name',
};

const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'refused the connection: nothing answers at its address and port',
  ENOTFOUND: "could not be found: its host name does not resolve",
  EAI_AGAIN: "could not be found: its host name did not resolve in time",
  EDNS: "could not be found: its host name does not resolve",
  EHOSTUNREACH: 'could not be reached: no route to its address',
  ENETUNREACH: 'could not be reached: no route to its address',
  ECONNRESET: 'cut the connection before it was done',
  ECONNECTION: 'cut the connection before it was done',
  ETIMEDOUT: 'did not answer in time (10 seconds)',
};

/**
 * Why a mail or a webhook could not be sent, in words a workspace's owner can act on (the Alerts page shows it):
 * "the mail server did not accept a secure connection: its certificate is self-signed", not Node's error text. Our
 * own errors (an internal address refused, an HTTP answer, no mail server) are worded already and pass as they are.
 */
export function failureWords(error: unknown, target: 'the mail server' | 'the webhook'): string {
  const e = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as SendError;
  const codes = [e.code, e.originalCode].filter((code): code is string => code !== undefined);
  const certificate = codes.map((code) => CERTIFICATE[code]).find((words) => words !== undefined);
  if (certificate !== undefined) return `${target} did not get a secure (TLS) connection: ${certificate}, and only certificates from a trusted authority are accepted`;
  if (codes.includes('ETLS')) return `${target} did not get a secure (TLS) connection: the TLS handshake failed`;
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `${target} ${UNREACHABLE.ETIMEDOUT}`;
  if (codes.includes('EAUTH')) return `${target} refused the user name or password it was given`;
  if (e.responseCode !== undefined && e.responseCode >= 400) return `${target} refused the message, answering “${(e.response ?? '').trim()}”`;
  const unreachable = codes.map((code) => UNREACHABLE[code]).find((words) => words !== undefined);
  if (unreachable !== undefined) return `${target} ${unreachable}`;
  return e.message ?? String(error);
}
