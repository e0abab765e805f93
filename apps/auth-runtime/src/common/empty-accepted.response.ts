import { ApiAcceptedResponse, ApiOkResponse } from '@nestjs/swagger';

/** A 202 whose body is `{}` (the work goes on after the answer: a mail, a text). */
export const ApiAcceptedEmpty = () =>
  ApiAcceptedResponse({
    description: 'Accepted; the body is `{}`',
    schema: { type: 'object', maxProperties: 0 },
  });

/** A 200 whose body is `{}` (done; nothing to show: a password reset or change). */
export const ApiOkEmpty = () =>
  ApiOkResponse({
    description: 'Done; the body is `{}`',
    schema: { type: 'object', maxProperties: 0 },
  });
