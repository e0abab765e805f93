import { ApiAcceptedResponse } from '@nestjs/swagger';

/** A 202 whose body is `{}` (the work goes on after the answer: a mail, a text). */
export const ApiAcceptedEmpty = () => ApiAcceptedResponse({ description: 'Accepted; the body is `{}`', schema: { type: 'object', maxProperties: 0 } });
