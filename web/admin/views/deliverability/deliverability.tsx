// Whether our mail reaches inboxes (docs/decisions/020-deliverability.md): the deployment's rolling
// complaint rate beside the 0.3 % line, each campaign's and each recipient domain's figures, and,
// for those who may read addresses, the suppression list.
import type { ReactNode } from 'react'
import {
  type CampaignDeliverability,
  type ComplaintRate,
  type DeliveryFigures,
  type DomainDeliverability,
  percent,
} from '../../../../contract/deliverability'
import { cn } from '../../../lib/cn'
import type { AdminApi } from '../../api'
import { adminContent } from '../../content'
import { useLoaded } from '../../hooks'
import { useAdmin } from '../../session'
import { type Column, TableRegion, td } from '../../table'
import { SuppressionsPanel } from './suppressions'

const copy = adminContent.deliverability
const number = adminContent.format.number
const loadDeliverability = (api: AdminApi) => api.deliverability()

export function DeliverabilityView() {
  const { can } = useAdmin()
  const { data } = useLoaded(loadDeliverability)
  return (
    <>
      <section aria-labelledby="deliverability-heading" className="rounded-2xl bg-white p-6 shadow-sm">
        <h2 id="deliverability-heading" className="text-sm font-semibold text-stone-600 uppercase">
          {copy.heading}
        </h2>
        <p className="mt-2 max-w-3xl text-sm text-stone-700">{copy.intro}</p>
        {data ? <ComplaintRatePanel rate={data.complaintRate} /> : <p className="mt-4 text-stone-600">…</p>}
        {data && data.unattributed.hardBounced + data.unattributed.softBounced + data.unattributed.complained > 0 ? (
          <p className="mt-3 text-sm text-stone-700">
            {copy.unattributed(data.unattributed.hardBounced, data.unattributed.softBounced, data.unattributed.complained)}
          </p>
        ) : null}
        <p className="mt-3 text-xs text-stone-600">{data ? copy.counted(data.countedAt) : null}</p>
        <CampaignsTable campaigns={data?.campaigns ?? null} />
        <DomainsTable domains={data?.domains ?? null} />
      </section>
      {can('mail:read') ? <SuppressionsPanel /> : null}
    </>
  )
}

/** The bar runs to twice the line, or past the rate when it is higher still: the line stays in sight. */
function ComplaintRatePanel({ rate }: { rate: ComplaintRate }) {
  const scale = Math.max(rate.limit * 2, (rate.rate ?? 0) * 1.25)
  const fill = rate.rate === null ? 0 : Math.min(100, (rate.rate / scale) * 100)
  const line = (rate.limit / scale) * 100
  const limit = percent(rate.limit)
  return (
    <div role="group" aria-labelledby="complaint-rate-heading" className="mt-4 rounded-xl bg-stone-100 p-4">
      <h3 id="complaint-rate-heading" className="font-semibold text-stone-900">
        {copy.rateHeading}
      </h3>
      <p className="mt-1 text-sm text-stone-700">{copy.rateIntro(rate.days)}</p>
      <p className="mt-3 flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="text-3xl font-bold text-stone-900 tabular-nums">{rate.rate === null ? '–' : percent(rate.rate)}</span>
        <span className="text-sm text-stone-700">{rate.rate === null ? copy.noRate : copy.rateFigures(rate.complaints, rate.sent)}</span>
      </p>
      <div
        role="meter"
        aria-label={copy.meterLabel}
        aria-valuemin={0}
        aria-valuemax={scale}
        aria-valuenow={rate.rate ?? 0}
        aria-valuetext={`${rate.rate === null ? copy.noRate : copy.rate(percent(rate.rate))}; ${copy.line(limit)}`}
        className="relative mt-3 h-4 rounded-full bg-white ring-1 ring-stone-300"
      >
        <div
          className={cn('h-full rounded-full', rate.above ? 'bg-red-700' : 'bg-emerald-700')}
          style={{ width: `${fill}%`, minWidth: fill > 0 ? '0.5rem' : undefined }}
        />
        {/* The line itself, and its figure under it. */}
        <div aria-hidden="true" className="absolute -top-1 -bottom-1 w-0.5 bg-stone-900" style={{ left: `${line}%` }} />
      </div>
      <div aria-hidden="true" className="relative mt-1 h-4 text-xs text-stone-700">
        <span className="absolute -translate-x-1/2 whitespace-nowrap" style={{ left: `${line}%` }}>
          {copy.line(limit)}
        </span>
      </div>
      <p className={cn('mt-2 text-sm font-semibold', rate.above ? 'text-red-800' : 'text-emerald-800')}>
        {rate.above ? copy.above(limit) : copy.below(limit)}
      </p>
    </div>
  )
}

const FIGURE_COLUMNS: readonly Column[] = [
  { label: copy.columns.sent, numeric: true },
  { label: copy.columns.delivered, numeric: true },
  { label: copy.columns.hard, numeric: true },
  { label: copy.columns.soft, numeric: true },
  { label: copy.columns.complained, numeric: true },
  { label: copy.columns.unsubscribed, numeric: true },
]

/** A row's figures, each after the first with its share of the mails sent under it. */
function FigureCells({ figures }: { figures: DeliveryFigures }) {
  const numeric = `${td} text-right tabular-nums`
  const withShare = (n: number) => (
    <td className={numeric}>
      {number(n)}
      <span className="block text-xs text-stone-600">{copy.share(n, figures.sent)}</span>
    </td>
  )
  return (
    <>
      <td className={cn(numeric, 'align-top')}>{number(figures.sent)}</td>
      {withShare(figures.delivered)}
      {withShare(figures.hardBounced)}
      {withShare(figures.softBounced)}
      {withShare(figures.complained)}
      {withShare(figures.unsubscribed)}
    </>
  )
}

function CampaignsTable({ campaigns }: { campaigns: readonly CampaignDeliverability[] | null }) {
  return (
    <Figures
      caption={copy.campaignsCaption}
      first={[{ label: copy.columns.campaign }, { label: copy.columns.status }]}
      empty={campaigns && campaigns.length === 0 ? copy.noCampaigns : null}
    >
      {campaigns?.map((campaign) => (
        <tr key={campaign.id} className="border-t border-stone-200 align-top">
          <th scope="row" className={cn(td, 'min-w-48 font-medium break-words')}>
            #{campaign.id} {campaign.subject}
          </th>
          <td className={td}>
            {adminContent.campaigns.statuses[campaign.status]}
            {campaign.pausedReason ? <span className="block text-xs text-red-800">{campaign.pausedReason}</span> : null}
          </td>
          <FigureCells figures={campaign} />
        </tr>
      ))}
    </Figures>
  )
}

function DomainsTable({ domains }: { domains: readonly DomainDeliverability[] | null }) {
  return (
    <Figures
      caption={copy.domainsCaption}
      first={[{ label: copy.columns.domain }]}
      empty={domains && domains.length === 0 ? copy.noDomains : null}
    >
      {domains?.map((row) => (
        <tr key={row.domain ?? '(other)'} className={cn('border-t border-stone-200 align-top', row.domain === null && 'bg-stone-50')}>
          <th scope="row" className={cn(td, 'font-medium break-all', row.domain === null && 'italic')}>
            {row.domain ?? (domains.length === 1 ? copy.allDomains(row.domains) : copy.otherDomains(row.domains))}
          </th>
          <FigureCells figures={row} />
        </tr>
      ))}
    </Figures>
  )
}

function Figures({
  caption,
  first,
  empty,
  children,
}: {
  caption: string
  first: readonly Column[]
  empty: string | null
  children: ReactNode
}) {
  return (
    <>
      <h3 className="mt-6 font-semibold text-stone-900">{caption}</h3>
      <TableRegion caption={caption} className="mt-2 max-h-[36rem]" columns={[...first, ...FIGURE_COLUMNS]} empty={empty}>
        {children}
      </TableRegion>
    </>
  )
}
