/** Updates answer to PUT and PATCH alike, with partial-update meaning (contract 1.1). */
export const UPDATE_METHODS: ['PUT', 'PATCH'] = ['PUT', 'PATCH'];
