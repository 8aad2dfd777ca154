// The icons the content may name. Content refers to an icon by key so it stays plain data; the
// map keeps lucide's tree-shaking (only these icons reach the bundle).
import {
  BadgeCheck,
  Building2,
  CalendarHeart,
  ChartLine,
  Crown,
  Dna,
  EyeOff,
  FileCheck,
  Gavel,
  Handshake,
  Headset,
  Heart,
  House,
  IdCard,
  type IconNode,
  Lock,
  MessagesSquare,
  PawPrint,
  Scale,
  Search,
  ShieldCheck,
  Stethoscope,
  Trophy,
  UserRoundCheck,
} from 'lucide'
import { SvgIcon } from './svg-icon'

export const icons = {
  'badge-check': BadgeCheck,
  building: Building2,
  'calendar-heart': CalendarHeart,
  chart: ChartLine,
  crown: Crown,
  dna: Dna,
  'eye-off': EyeOff,
  'file-check': FileCheck,
  gavel: Gavel,
  handshake: Handshake,
  headset: Headset,
  heart: Heart,
  home: House,
  'id-card': IdCard,
  lock: Lock,
  messages: MessagesSquare,
  paw: PawPrint,
  scale: Scale,
  search: Search,
  'shield-check': ShieldCheck,
  stethoscope: Stethoscope,
  trophy: Trophy,
  'user-check': UserRoundCheck,
} satisfies Record<string, IconNode>

export type IconName = keyof typeof icons

export function Icon({ name, className }: { name: IconName; className: string }) {
  return <SvgIcon icon={icons[name]} className={className} />
}
