/** Catalogue endpoints of SPEC.md section 7: home config, languages, currencies, cities. */
import { Hono } from 'hono';
import { homeConfig, cityGroups, hotCities } from '../../services/catalogue/catalogue.ts';
import { currenciesIn } from '../../services/catalogue/reference-data.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';

const doc = describe('Catalogue');

export const catalogueRoutes = new Hono<ApiEnv>()
  .get('/', doc.anyone("The home page's configuration: banners, sections and texts"), async (c) => {
    const t = c.get('t');
    const tkd = { title: t('site.title'), keywords: t('site.keywords'), description: t('site.description') };
    return c.json(success(await homeConfig(c.var.scope, tkd)));
  })
  .get('/v1/language/list', doc.anyone('The languages'), (c) => c.json(success(c.var.scope.reference.languages)))
  .get('/v1/currency/list', doc.anyone('The currencies, named in the language of the request'), (c) =>
    c.json(success(currenciesIn(c.var.scope.reference, c.get('ctx').locale))),
  )
  .get('/v1/currency', doc.anyone("The request's currency"), (c) => c.json(success({ code: c.get('ctx').currency })))
  .get('/v1/cities/active/group', doc.anyone('The active cities, grouped'), (c) => c.json(success(cityGroups(c.var.scope))))
  .get('/v1/cities/hotCity', doc.anyone('The hot cities'), (c) => c.json(success(hotCities(c.var.scope))));
