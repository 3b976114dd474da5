/**
 * The browser script served at `GET /i18n/pixel/events.js` in place of TikTok's pixel library. It plays the library as
 * far as Signalbox's tag and a shop's own base code use it: it takes over the `ttq` stub of TikTok's base code (the
 * calls queued on `ttq` itself and on `ttq._i[code]`), answers page/track/identify, the consent calls, load, instance
 * and ready, sets the `_ttp` cookie while consent allows, and reports each page/track/identify call to the fake
 * (`POST /i18n/pixel/report`, next to the script). Plain ES2017 in a string: it runs in the page, not in Node.
 *
 * Consent, as TikTok's pixel documents it: `holdConsent` keeps calls (and the cookie) back until `grantConsent` sends
 * them; `revokeConsent` drops them and everything after it. Without any consent call the pixel tracks at once.
 */
export const PIXEL_STAND_IN_SCRIPT = String.raw`(function () {
  'use strict';
  var TTP_MAX_AGE_SECONDS = 34190000; // about 13 months, as TikTok's pixel keeps _ttp
  var TTP_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  var NO_OPS = ['instances', 'debug', 'on', 'off', 'once', 'alias', 'group', 'enableCookie', 'disableCookie'];

  var src = new URL(document.currentScript.src);
  var libraryUrl = src.origin + src.pathname;
  var reportUrl = new URL('/i18n/pixel/report', src).href;
  var globalName = window.TiktokAnalyticsObject || src.searchParams.get('lib') || 'ttq';
  var ttq = window[globalName] = window[globalName] || [];
  ttq._i = ttq._i || {};
  ttq._o = ttq._o || {};
  var code = src.searchParams.get('sdkid');
  if (code && !ttq._i[code]) ttq._i[code] = [];

  var firstRun = !ttq._standIn;
  if (firstRun) ttq._standIn = { consent: 'default', held: [], identity: {} };
  var state = ttq._standIn;
  if (firstRun) {
    install(ttq, null);
    drain(ttq);
  }
  if (code) {
    install(ttq._i[code], code);
    drain(ttq._i[code]);
  }
  if (tracking()) ensureTtp();

  /** Replaces the stub's queueing methods of the global (pixelCode null: every loaded pixel) or of one instance. */
  function install(target, pixelCode) {
    ['page', 'track', 'identify', 'holdConsent', 'grantConsent', 'revokeConsent'].forEach(function (method) {
      target[method] = function () {
        call(pixelCode, method, Array.prototype.slice.call(arguments));
        return target;
      };
    });
    NO_OPS.forEach(function (method) {
      target[method] = function () { return target; };
    });
    target.ready = function (callback) {
      if (typeof callback === 'function') callback();
      return target;
    };
    target._installed = true;
    if (pixelCode === null) {
      target.load = load;
      target.instance = function (other) { return ttq._i[other] || []; };
    }
  }

  /** Runs what the stub queued before the library arrived, in order. */
  function drain(queue) {
    queue.splice(0).forEach(function (entry) {
      if (typeof queue[entry[0]] === 'function') queue[entry[0]].apply(queue, entry.slice(1));
    });
  }

  function load(pixelCode, options) {
    if (ttq._i[pixelCode] && ttq._i[pixelCode]._installed) return ttq;
    ttq._i[pixelCode] = ttq._i[pixelCode] || [];
    ttq._o[pixelCode] = options || {};
    var script = document.createElement('script');
    script.async = true;
    script.src = libraryUrl + '?sdkid=' + encodeURIComponent(pixelCode) + '&lib=' + globalName;
    document.head.appendChild(script);
    return ttq;
  }

  function call(pixelCode, method, args) {
    if (method === 'holdConsent') {
      state.consent = 'held';
    } else if (method === 'revokeConsent') {
      state.consent = 'revoked';
      state.held = [];
    } else if (method === 'grantConsent') {
      state.consent = 'granted';
      ensureTtp();
      state.held.splice(0).forEach(function (held) { deliver(held.pixelCodes, held.method, held.args); });
    } else if (method === 'page' || method === 'track' || method === 'identify') {
      // A call on the global goes to every pixel loaded when it is made.
      var pixelCodes = pixelCode === null ? Object.keys(ttq._i) : [pixelCode];
      if (state.consent === 'held') state.held.push({ pixelCodes: pixelCodes, method: method, args: args });
      else if (state.consent !== 'revoked') deliver(pixelCodes, method, args);
    }
  }

  function tracking() {
    return state.consent === 'default' || state.consent === 'granted';
  }

  function deliver(pixelCodes, method, args) {
    var fields;
    if (method === 'identify') {
      var keys = args[0] || {};
      ['email', 'phone_number', 'external_id'].forEach(function (key) {
        if (typeof keys[key] === 'string') state.identity[key] = keys[key];
      });
      fields = { method: 'identify' };
    } else if (method === 'page') {
      fields = { method: 'page', event: 'Pageview' };
    } else {
      var options = Object.assign({}, args[2]);
      var eventId = options.event_id;
      delete options.event_id;
      fields = { method: 'track', event: args[0], eventId: eventId, properties: args[1] || {}, options: options };
    }
    pixelCodes.forEach(function (pixelCode) { report(pixelCode, fields); });
  }

  function report(pixelCode, fields) {
    var body = Object.assign(
      { pixelCode: pixelCode, url: location.href, ttp: ensureTtp(), identity: state.identity, loadOptions: ttq._o[pixelCode] || {} },
      fields
    );
    fetch(reportUrl, { method: 'POST', body: JSON.stringify(body), keepalive: true, credentials: 'omit', headers: { 'content-type': 'text/plain' } })
      .then(function (answer) {
        if (!answer.ok) return answer.text().then(function (text) { console.warn('TikTok pixel stand-in: report refused: ' + text); });
      })
      .catch(function (error) { console.warn('TikTok pixel stand-in: report failed: ' + error); });
  }

  function readCookie(name) {
    var match = document.cookie.match(new RegExp('(?:^|;\\s*)' + name + '=([^;]*)'));
    return match ? decodeURIComponent(match[1]) : null;
  }

  /** The _ttp cookie, set on the page's site (the widest domain the browser accepts) if it is not there yet. */
  function ensureTtp() {
    var ttp = readCookie('_ttp') || newTtp();
    var line = '_ttp=' + ttp + '; path=/; max-age=' + TTP_MAX_AGE_SECONDS + '; SameSite=Lax';
    var domain = siteDomain();
    document.cookie = domain ? line + '; domain=' + domain : line;
    return ttp;
  }

  function newTtp() {
    var ttp = '';
    while (ttp.length < 27) {
      var byte = crypto.getRandomValues(new Uint8Array(1))[0];
      if (byte < 248) ttp += TTP_ALPHABET[byte % TTP_ALPHABET.length]; // 248 = 4 × 62: no letter more likely than another
    }
    return ttp;
  }

  /** Null for an IP address or a one-label host (localhost): the cookie stays on the host. */
  function siteDomain() {
    var host = location.hostname;
    if (/^[\d.]+$/.test(host) || host.indexOf(':') >= 0 || host.indexOf('.') < 0) return null;
    var labels = host.split('.');
    for (var i = labels.length - 2; i > 0; i -= 1) {
      var candidate = labels.slice(i).join('.');
      document.cookie = '_ttp_probe=1; path=/; domain=' + candidate;
      if (readCookie('_ttp_probe') === '1') {
        document.cookie = '_ttp_probe=; path=/; max-age=0; domain=' + candidate;
        return candidate;
      }
    }
    return host;
  }
})();
`;
