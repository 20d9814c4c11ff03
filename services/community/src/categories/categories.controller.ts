import { catalogContracts, type CategoryList } from '@debate/contracts';
import { HandleRequest } from '@debate/nest';
import { Controller } from '@nestjs/common';
import { categories } from './categories.data.js';

@Controller()
export class CategoriesController {
  @HandleRequest(catalogContracts.categories)
  list(): CategoryList {
    return { categories: [...categories] };
  }
}
