// What every notification route shares: the plan gate's module, the API docs' tag, the error answers.
import { detailResponse, fieldErrorsResponse, uuid } from '@coverdesk/contract';
import { z } from 'zod';

export const MODULE = 'module_notifications';
export const tags = ['notifications'];
export const errors = {
  400: fieldErrorsResponse,
  402: detailResponse,
  403: detailResponse,
  404: detailResponse,
};
export const idParams = z.object({ id: uuid });
export const marked = z.object({ marked: z.number().int() });
