/**
 * The console's images page (catalogue staff): the latest uploads, and a plain form that uploads one
 * (services/media/images.ts) and comes back to the list with its path, or shows the upload's refusal
 * on the file field with the chosen kind kept.
 */
import type { AstroGlobal } from 'astro';
import { env } from 'cloudflare:workers';
import { DomainError } from '../domain/errors.ts';
import type { PosterKind } from '../domain/poster-images.ts';
import type { StaffRole } from '../domain/staff.ts';
import { type ImageListItem, latestImages, storeImage } from '../services/media/images.ts';
import { PageExit } from './page-exit.ts';
import { staffPage } from './staff-page.ts';

/** How many uploads the page lists. */
const LISTED_IMAGES = 50;
const KINDS: readonly PosterKind[] = ['activity', 'banner'];

export interface OpsImagesPage {
  roles: readonly StaffRole[];
  images: ImageListItem[];
  /** The image just uploaded (after the form's redirect), when it is listed. */
  uploaded: ImageListItem | null;
  /** The kind the form shows chosen: the one last posted. */
  kind: PosterKind;
  /** The refusal of the upload just posted, for the file field. */
  refusal: DomainError | null;
}

const kindOf = (value: unknown): PosterKind | null => ((KINDS as readonly unknown[]).includes(value) ? (value as PosterKind) : null);

export async function opsImagesPage(astro: AstroGlobal): Promise<OpsImagesPage | PageExit> {
  const page = await staffPage(astro, 'catalogue');
  if (page instanceof PageExit) return page;
  const { scope } = page;
  let kind: PosterKind = 'activity';
  let refusal: DomainError | null = null;

  if (astro.request.method === 'POST') {
    const form = await astro.request.formData().catch(() => null);
    const file = form?.get('file');
    kind = kindOf(form?.get('kind')) ?? kind;
    try {
      if (!(file instanceof File) || file.size === 0) throw new DomainError('invalid_input', { field: 'file' }, 'file');
      const image = await storeImage(scope, { images: env.IMAGES, bucket: env.MEDIA }, kind, new Uint8Array(await file.arrayBuffer()));
      return PageExit.redirect(`${astro.locals.originPathname}?uploaded=${image.id}`, 303);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      refusal = error;
      astro.response.status = 400;
    }
  }

  const images = await latestImages(scope.db, LISTED_IMAGES);
  const uploadedId = astro.url.searchParams.get('uploaded');
  return { roles: scope.staffRoles, images, uploaded: images.find((image) => image.id === uploadedId) ?? null, kind, refusal };
}
