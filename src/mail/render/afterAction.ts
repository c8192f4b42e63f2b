/**
 * The after-action report's mail (docs/gm-guide.md, "The end of a campaign"): the winner and
 * why it ended, the VP ledger by turn drawn as a line chart (a PNG: mail clients show no SVG),
 * every battle, and each turn's unfogged map with every track as an attached PNG (the last
 * one also in the body). The web page has the same, with a phase slider on each map.
 */
import type { AfterAction } from '../afterActionRead.js';
import { mapToPng, svgToPng } from '../../map/png.js';
import { vpChartSvg, VP_CHART_WIDTH } from '../../map/vpChart.js';
import { afterActionSubject, overSentence, winnerSentence } from '../../words/afterAction.js';
import type { MailAttachment } from '../transport.js';
import { renderParts } from './templates.js';
import type { RenderedMail } from './turnReport.js';

export interface AfterActionMailInput {
  campaignId: string;
  /** Who it is addressed to: the player's name, or "GM". */
  readerName: string;
  role: 'player' | 'gm';
  /** The after-action page (absolute when PUBLIC_URL is set). */
  page: string;
}

export async function renderAfterAction(a: AfterAction, input: AfterActionMailInput): Promise<RenderedMail> {
  const chart = await svgToPng(vpChartSvg(a.chart), VP_CHART_WIDTH * 2);
  const chartCid = `vp-chart-${a.campaign.id}@sasg`;
  const attachments: MailAttachment[] = [{ filename: 'vp-by-turn.png', contentType: 'image/png', contentBase64: chart.png.toString('base64'), cid: chartCid }];
  for (const m of a.maps) {
    const { png } = await mapToPng({ ...m.input, inset: false });
    attachments.push({ filename: `map-turn-${m.turn}.png`, contentType: 'image/png', contentBase64: png.toString('base64') });
  }
  const lastMap = attachments.length > 1 ? attachments.at(-1)! : null;
  if (lastMap) lastMap.cid = `map-last-${a.campaign.id}@sasg`;
  const data = {
    title: 'After-action report', campaignName: a.campaign.name, readerName: input.readerName,
    over: overSentence(a.campaign.endReason, a.campaign.endedAt), winner: winnerSentence(a.winner),
    chartCid, mapCid: lastMap?.cid ?? null, lastTurn: a.maps.at(-1)?.turn ?? null,
    powers: a.chart.powers.map((p) => p.name),
    ledger: a.ledger.map((row) => ({ turn: row.turn, cells: row.vp.map((v) => v.vp) })),
    battles: a.battles, mapFiles: a.maps.map((m) => `map-turn-${m.turn}.png`), page: input.page,
    archive: input.role === 'player',
  };
  const { text, html } = renderParts('after-action', data);
  return { subject: afterActionSubject(a.campaign.name), text, html, attachments };
}
