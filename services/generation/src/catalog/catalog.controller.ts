import { catalogContracts, type GenerationCatalog } from '@debate/contracts';
import { HandleRequest } from '@debate/nest';
import { Controller } from '@nestjs/common';
import {
  debateFormats,
  rhetoricStyles,
  roundTitles,
  speakerModels,
  topics,
} from './catalog.data.js';

@Controller()
export class CatalogController {
  @HandleRequest(catalogContracts.generationCatalog)
  get(): GenerationCatalog {
    return {
      rhetoricStyles: [...rhetoricStyles],
      debateFormats: [...debateFormats],
      models: [...speakerModels],
      roundTitles: [...roundTitles],
      topics: [...topics],
    };
  }
}
