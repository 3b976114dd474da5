import { z } from 'zod';
import { conversionSummaryView, helpView, identityKindView, identityLinkView, instant, orderName } from './views';

/* One conversion explained, as the settings API and the console answer it; the CLI and the console read it with these types. Imports nothing but zod and views.ts. */

const matchKeySource = z.strictObject({
  source: z.enum(['message', 'visitor', 'identity']),
  anonymousId: z.string().optional().meta({ description: 'The linked visitor the key came from' }),
});

/** The TikTok request a conversion went in: its envelope, how many events it carried and where this one was. */
const deliveryRequestView = z.strictObject({
  id: z.string(),
  eventSource: z.string(),
  eventSourceId: z.string(),
  testEventCode: z.string().nullable(),
  events: z.number().int(),
  position: z.number().int().meta({ description: 'This conversion\'s place among them, from 0' }),
  sentAt: instant,
  answeredAt: instant.nullable().meta({ description: 'null while the answer is unknown' }),
  outcome: z.enum(['success', 'retryable', 'permanent']).nullable(),
  httpStatus: z.number().int().nullable(),
});

/** `GET …/conversions/:conversionId`. */
export const conversionDetailView = z
  .strictObject({
    ...conversionSummaryView.shape,
    workspaceId: z.string(),
    messageId: z.string(),
    workflowId: z.string(),
    workflowRunId: z.string().nullable(),
    workflowUrl: z.string().nullable().meta({ description: 'The Temporal UI page of the workflow (and run), when configured' }),
    workflowStartedAt: instant.nullable(),
    attempts: z.number().int(),
    click: z.strictObject({
      ttclid: z.string().nullable(),
      capturedAt: instant.nullable(),
      anonymousId: z.string().nullable(),
      source: z
        .enum(['message', 'visitor'])
        .nullable()
        .meta({ description: "Where the click was found: `message`, on the converting event itself (a Shopify order's cart attributes or landing page); `visitor`, on a visitor's profile (the converting visitor's or one linked to the person); null without a click, or for conversions prepared before this was recorded" }),
    }),
    ttp: z.string().nullable(),
    identityPath: z
      .array(z.strictObject({ kind: z.string(), value: z.string() }))
      .nullable()
      .meta({ description: 'How the click\'s visitor was reached from the converting message; null when no click was found' }),
    matchKeys: z.record(z.string(), matchKeySource).nullable().meta({ description: 'Where each match key sent to TikTok came from; null until the payload is built' }),
    requestPayload: z.record(z.string(), z.unknown()).nullable().meta({ description: 'The exact (hashed) event sent' }),
    deliveryRequest: deliveryRequestView.nullable(),
    tiktokResponse: z.strictObject({ code: z.number().int().nullable(), message: z.string().nullable(), requestId: z.string().nullable(), body: z.record(z.string(), z.unknown()).nullable() }),
    timeline: z.array(z.strictObject({ at: instant, step: z.string(), detail: z.record(z.string(), z.unknown()) })),
    repeatedBy: z
      .array(z.strictObject({ id: z.string(), messageId: z.string(), event: z.string().nullable(), receivedAt: instant }))
      .meta({ description: 'Later events that repeated its order ID or event ID (stored, but no new conversion), the first ones' }),
    messageEvents: z
      .array(z.strictObject({ id: z.string(), tiktokEvent: z.string(), eventId: z.string(), status: conversionSummaryView.shape.status }))
      .meta({ description: 'Every TikTok event sent for the same message, this one included, in its rule\'s order' }),
    updatedAt: instant,
  })
  .meta({ id: 'ConversionDetail' });
export type ConversionDetailView = z.infer<typeof conversionDetailView>;

/** `POST …/conversions/retry`: what was queued again. */
export const conversionRetryView = z.strictObject({ requeued: z.number().int(), conversionIds: z.array(z.string()) });
export type ConversionRetryView = z.infer<typeof conversionRetryView>;

/** The settings API's detail but for the Temporal UI link, which is the operator's (the console has shop owners, editors and viewers). */
const { workflowUrl: _operatorsOnly, ...sharedDetailShape } = conversionDetailView.shape;

/** The console's conversion page: the settings API's detail, its timeline in sentences, and each state explained. */
export const consoleConversionDetailView = z
  .strictObject({
    ...sharedDetailShape,
    tiktokCode: z.number().int().nullable(),
    receivedAt: instant,
    userId: z.string().nullable(),
    anonymousId: z.string().nullable(),
    identityPath: z
      .array(z.strictObject({ kind: identityKindView, value: z.string(), linkFromPrevious: identityLinkView.nullable() }))
      .nullable()
      .meta({ description: 'How the click\'s visitor was reached from the converting message, each step with how it joins the one before' }),
    identityPathRecorded: z.boolean().meta({ description: 'false when the path was rebuilt from today\'s identity links' }),
    timeline: z.array(z.strictObject({ at: instant.nullable(), summary: z.string(), details: z.array(z.strictObject({ label: z.string(), value: z.string() })) })).meta({ description: 'Each step in a sentence, with its codes and IDs as details' }),
    help: helpView.nullable().meta({ description: 'Its reason explained' }),
    withoutClickHelp: helpView.nullable(),
    repeatedHelp: helpView.nullable(),
    orderName,
    clickFromLandingPage: z.boolean().meta({ description: 'The click came with a Shopify order: from the page its visit landed on, as Shopify kept it with the order' }),
    canSendAgain: z.boolean(),
    sendAgainRefusal: z.string().nullable().meta({ description: 'Why "Send again" is not offered, e.g. sending again would only skip it again' }),
  })
  .meta({ id: 'ConsoleConversionDetail' });
export type ConsoleConversionDetailView = z.infer<typeof consoleConversionDetailView>;
