import { catalogContracts, type CategoryList, debateCategories } from '@debate/contracts';
import { HandleRequest } from '@debate/nest';
import { Controller } from '@nestjs/common';

/** The categories a debate can be filed under, for the ranking filter and the share dialog. */
@Controller()
export class CategoriesController {
  @HandleRequest(catalogContracts.categories)
  list(): CategoryList {
    return { categories: [...debateCategories] };
  }
}
