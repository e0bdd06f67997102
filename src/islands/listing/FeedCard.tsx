/**
 * An activity card drawn by the listing island for the pages it loads; the same markup and look
 * as src/components/ActivityCard.astro, which draws the server-rendered ones.
 */
import { CARD_POSTER_SIZES, type ImageDelivery, responsiveImage } from '../../lib/domain/poster-images.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import type { ActivityCard } from '../../lib/services/catalogue/catalogue.ts';

interface Props {
  card: ActivityCard;
  prefix: string;
  messages: Messages;
  /** How this deployment serves poster variants, as ActivityCard's Poster does. */
  imageDelivery: ImageDelivery;
}

export default function FeedCard({ card, prefix, messages: m, imageDelivery }: Props) {
  const image = responsiveImage(card.poster, 'activity', imageDelivery);
  const poster = <img src={card.poster} alt="" width={96} height={128} loading="lazy" decoding="async" />;
  return (
    <article className="feed-card">
      <a href={`${prefix}/activity/${card.id}`}>
        {image ? (
          <picture>
            {image.sources.map((source) => (
              <source key={source.type} type={source.type} srcSet={source.srcset} sizes={CARD_POSTER_SIZES} />
            ))}
            {poster}
          </picture>
        ) : (
          poster
        )}
        <div className="feed-card-body">
          <h3>{card.name}</h3>
          <p className="feed-card-meta">{card.timeRange}</p>
          <p className="feed-card-meta">{card.venueName}</p>
          <p className="feed-card-price">
            {card.lowPriceView ? <strong>{card.lowPriceView}</strong> : null}
            {card.lowPriceView ? <span className="feed-card-all-in">{format(m, 'card.allIn')}</span> : null}
            {card.discountPercent !== null && (
              <span className="feed-card-discount">{format(m, 'card.discount', { percent: card.discountPercent })}</span>
            )}
            {card.tag && <span className={`feed-card-tag feed-card-tag-${card.tag}`}>{format(m, `card.tag.${card.tag}`)}</span>}
          </p>
        </div>
      </a>
    </article>
  );
}
