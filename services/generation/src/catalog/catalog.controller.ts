import { catalogContracts, type GenerationCatalog } from '@debate/contracts';
import { HandleRequest } from '@debate/nest';
import { Controller } from '@nestjs/common';
import { LocalModelWatcher } from '../models/local-model.js';
import { Models } from '../models/models.js';
import { debateFormats, rhetoricStyles, roundTitles, topics } from './catalog.data.js';

@Controller()
export class CatalogController {
  constructor(
    private readonly models: Models,
    private readonly localModel: LocalModelWatcher,
  ) {}

  @HandleRequest(catalogContracts.generationCatalog)
  get(): GenerationCatalog {
    return {
      rhetoricStyles: [...rhetoricStyles],
      debateFormats: [...debateFormats],
      models: this.models.catalog(),
      searcher: this.models.searches,
      localModel: this.localModel.view(),
      roundTitles: [...roundTitles],
      topics: [...topics],
    };
  }
}
